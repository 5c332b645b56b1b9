/**
 * Human labels for topics and candidate reasoning lines, from their ranked keywords: the first three that read as
 * content words, one form per word, the first letter capitalised ("Wnuczka, metoda, seniora"). Modelling keeps every
 * term; only the label skips what a reader cannot use as a name: function words the stop lists miss ("wobec"),
 * words naming the court or the proceedings themselves ("sądowi", "appellant"), and codes (digits, underscores).
 */
import { fold } from "@/lib/search/text/tokenize";

/** Folded words that are never a topic's name (checked after the analysis stop lists, which already drop most). */
const LABEL_SKIP: ReadonlySet<string> = new Set(
  [
    // Polish prepositions, particles and pronoun forms the stop lists miss
    "wobec", "wzgledu", "wzgledem", "odnosnie", "poprzez", "wedlug", "zgodnie", "jednakze", "rowniez", "takze", "wlasnie",
    "ktory", "ktora", "ktore", "ktorego", "ktorej", "ktorym", "ktorych", "jego", "jej", "ich", "tego", "temu", "tym",
    "swoje", "swojej", "swojego", "swoim", "sobie", "siebie", "pana", "pani", "zatem", "wiec", "bowiem", "albowiem",
    // the court and the proceedings themselves, in any case
    "sad", "sadu", "sadowi", "sadem", "sadzie", "sady", "sadow", "sedzia", "sedziego", "apelacja", "apelacji", "apelacje",
    "wyrok", "wyroku", "wyrokiem", "oskarzony", "oskarzonego", "oskarzonemu", "oskarzonym", "strona", "strony",
    "court", "courts", "judge", "judges", "appeal", "appeals", "appellant", "respondent", "applicant", "case", "cases",
    "judgment", "judgments", "hearing", "counsel", "said", "also", "would", "could", "upon", "therefore", "however",
  ].map((w) => fold(w)),
);

const CODE_RE = /[\d_]/;
/** Words sharing this many leading letters are taken as forms of one word ("mienia", "mieniu"): one is kept. */
const SAME_WORD_PREFIX = 5;

const usable = (term: string) => term.trim().length >= 3 && !CODE_RE.test(term) && !LABEL_SKIP.has(fold(term.trim()));

/** The label of a ranked keyword list; when no keyword is usable, the first keywords as they are (never empty if any). */
export function readableLabel(keywords: readonly string[], size = 3): string {
  const picked: string[] = [];
  const stems = new Set<string>();
  for (const k of keywords) {
    if (picked.length >= size) break;
    if (!usable(k)) continue;
    const term = k.trim();
    const folded = fold(term);
    const stem = folded.slice(0, Math.min(SAME_WORD_PREFIX, folded.length));
    if (folded.length >= SAME_WORD_PREFIX && stems.has(stem)) continue;
    stems.add(stem);
    picked.push(term);
  }
  const words = picked.length > 0 ? picked : keywords.map((k) => k.trim()).filter(Boolean).slice(0, size);
  const label = words.join(", ");
  return label.charAt(0).toLocaleUpperCase() + label.slice(1);
}
