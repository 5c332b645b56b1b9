/**
 * Words of a question that are not content: once the rules have read dates, countries, sentence lengths and registry
 * phrases, these are dropped instead of going into the text search, where each would have to match (and a word like
 * "appeals" or "where" narrows nothing or empties the cohort). What is left is content ("robbery", "intoxicated") and
 * is proposed as a removable text chip. Lower case, whole words.
 */

/** English function words. */
const EN_STOP =
  "a an the in on of by for with without and or nor but to from at as into onto upon about over under than then " +
  "who whom whose which that this these those there here where when whenever while what why how " +
  "is are was were be been being am has have had having do does did doing done will would shall should can could may might must " +
  "it its he she they them their his her him we us our you your i me my mine not no yes also only just very so such " +
  "any all some each every both either neither other another more most less least much many few " +
  "show find list get give want wanted looking look search searching tell let please need " +
  "since until till after before during between among within per via";

/** Polish function words (with the common inflected forms). */
const PL_STOP =
  "w we z ze na o od do i oraz lub albo a ale lecz czy że żeby aby przez dla po przy pod nad przed za bez u " +
  "który która które którego której których którym którymi którzy co kto czego czym gdzie gdy kiedy jak jaki jaka jakie jakich " +
  "się nie tak też także jest są był była było były byli będzie być ma mają miał miała mieli to ten ta te tego tej tych tym " +
  "jego jej ich on ona oni one mnie mi my nas wszystkie wszystkich wszystko każdy każda każde " +
  "pokaż pokazać znajdź znaleźć wyszukaj szukam chcę proszę lista listę " +
  "dotyczące dotyczących dotyczy dotyczącej sprawie";

/**
 * Generic words of this domain: every judgment in the corpus is a criminal case, an appeal, a judgment about an
 * offender and a sentence, so as text they narrow nothing useful and often empty the cohort.
 */
const DOMAIN =
  "case cases appeal appeals appealed judgment judgments judgement judgements decision decisions ruling rulings " +
  "offender offenders defendant defendants accused appellant appellants committed " +
  "sentence sentences sentenced sentencing penalty penalties punishment " +
  "sprawa sprawy spraw sprawach wyrok wyroki wyroku wyroków wyrokach wyrokiem orzeczenie orzeczenia orzeczeń " +
  "apelacja apelacje apelacji apelację apelacjach apelacyjne apelacyjny apelacyjnych " +
  "sprawca sprawcy sprawców sprawcą oskarżony oskarżonego oskarżeni oskarżonych oskarżona " +
  "kara kary karę karą pozbawienia pozbawienie pozbawieniem wolności więzienia więzienie imprisonment custody custodial prison jail term terms skazany skazana skazani skazanych wymierzona wymierzono orzeczona orzeczono wynosiła wynosił";

export const NON_CONTENT_WORDS: ReadonlySet<string> = new Set(`${EN_STOP} ${PL_STOP} ${DOMAIN}`.split(/\s+/u).filter(Boolean));

/** Whether a word (any case, without punctuation) is a stop-word or a generic word of the domain. */
export function isNonContent(word: string): boolean {
  return NON_CONTENT_WORDS.has(word.toLowerCase());
}
