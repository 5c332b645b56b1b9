/**
 * Known answers for the judge fingerprint and reasoning lines, planted in the demo corpus.
 * Additive: only Polish judgments at the indexes below are touched (every one below 600, so the test slice holds
 * them; none is a search known answer of ./known-answers.ts), and only by renaming one judge and adding one
 * paragraph to the reasons and a few keywords, so every other row and every search known answer stays as it was.
 *
 * The planted answers (checked by tests/unit/planted-lines.test.ts and tests/api/judge-fingerprint.test.ts):
 * 1. Judge **Zdzisława Kropiwnicka** (PL) presides over every Polish judgment at JUDGE_INDEXES, and each of those
 *    judgments argues from the purpose of the law: her fingerprint's strongest style is **teleological** (100), with
 *    evidence phrases "ratio legis", "cel przepisu", "wykładnia celowościowa", "intencja ustawodawcy", "dobro chronione".
 * 2. Reasoning line **"kryptowaluta jako mienie"** (is a cryptocurrency "mienie" / a movable thing in the sense of
 *    art. 115 § 9 k.k.?): every Polish judgment at LINE_INDEXES carries the line's keywords and a paragraph on the
 *    question; discovery over the Polish judgments must put these judgments (those with a completed extraction) in
 *    one candidate line.
 */
import type { GeneratedCase } from "./types";

export const PLANTED_JUDGE = {
  name: "Zdzisława Kropiwnicka",
  jurisdiction: "PL" as const,
  style: "teleological" as const,
};

/** Indexes where the planted judge presides (when the judgment there is Polish). */
export const JUDGE_INDEXES: readonly number[] = [12, 33, 61, 88, 117, 139, 166, 188, 219, 241, 268, 289, 322, 341, 372, 391, 419, 438, 466, 487, 521, 542, 573, 591];

export const PLANTED_LINE = {
  label: "kryptowaluta jako mienie",
  legal_question: "Czy kryptowaluta jest mieniem i rzeczą ruchomą w rozumieniu art. 115 § 9 k.k.?",
  keywords: [
    "kryptowaluta",
    "bitcoin",
    "ethereum",
    "portfel kryptowalutowy",
    "klucz prywatny",
    "fraza odzyskiwania",
    "giełda kryptowalut",
    "token cyfrowy",
    "blockchain",
    "kryptoaktywa",
    "waluta wirtualna",
    "mienie cyfrowe",
  ],
  legalTopic: "kryptowaluty i kryptoaktywa w prawie karnym",
};

/** Indexes of the planted line's members (when the judgment there is Polish). */
export const LINE_INDEXES: readonly number[] = [20, 44, 71, 103, 129, 158, 176, 197, 230, 262, 283, 313, 334, 362, 384, 411, 431, 458, 478, 511, 529, 561, 580, 597];

const judgeIndexSet = new Set(JUDGE_INDEXES);
const lineIndexSet = new Set(LINE_INDEXES);

const REASONS_MARK = "Sąd Apelacyjny zważył, co następuje:";

/** Teleological paragraphs (each phrase is one pattern of lib/analysis/data/reasoning-patterns.json). */
export const PURPOSE_PARAGRAPHS: readonly string[] = [
  "Rozstrzygając sprawę, Sąd Apelacyjny sięgnął przede wszystkim do wykładni celowościowej. Ratio legis zastosowanego przepisu jest ochrona pokrzywdzonego przed powtórzeniem czynu. Celem przepisu jest ochrona bezpieczeństwa osobistego, a taka była intencja ustawodawcy, gdy nadawał mu obecne brzmienie. Przedmiotem ochrony jest tu zdrowie człowieka, a wykładnia celowościowa nie pozwala tego dobra pominąć. Ratio legis całej regulacji przemawia za tym samym wnioskiem.",
  "Wykładnia celowościowa prowadzi w tej sprawie do jednoznacznego wniosku. Celem przepisu jest zapobieżenie szkodzie, zanim ona powstanie, i taka była intencja ustawodawcy. Ratio legis tej normy jest ochrona zaufania pokrzywdzonych. Przedmiotem ochrony jest mienie pokrzywdzonego, a ratio legis przepisu wyklucza jego zawężające rozumienie. Wykładnia celowościowa potwierdza zatem trafność oceny sądu pierwszej instancji.",
  "Sąd odwoławczy kierował się przede wszystkim wykładnią celowościową. Ratio legis przepisu jest ochrona dobra wymiaru sprawiedliwości. Celem przepisu jest, by sprawca nie czerpał korzyści z przestępstwa; taka była intencja ustawodawcy. Przedmiotem ochrony jest porządek prawny, a wykładnia celowościowa pozwala go chronić skutecznie. Ratio legis nie pozwala tu na inne rozstrzygnięcie.",
];

export const LINE_PARAGRAPH =
  "Kluczowe w sprawie było to, czy kryptowaluta, a w szczególności bitcoin zgromadzony w portfelu kryptowalutowym, stanowi mienie i rzecz ruchomą w rozumieniu art. 115 § 9 k.k. Sąd Apelacyjny przyjmuje, że kryptowaluta, do której dostęp zapewnia klucz prywatny, ma wymierną wartość majątkową na giełdzie kryptowalut, a zatem jest mieniem podlegającym ochronie prawnokarnej; token cyfrowy nie jest wprawdzie rzeczą w rozumieniu prawa cywilnego, lecz przejęcie klucza prywatnego do portfela kryptowalutowego jest zaborem mienia.";

/**
 * The line's question in the header too (what was appealed), so the judgment's opening — which the search engine
 * embeds, together with the keywords — carries it: measured on the test slice, keywords alone moved the planted
 * judgments' mutual cosine from 0.76 to only 0.81 and k-means did not separate them.
 */
const LINE_HEADER =
  "w przedmiocie zaboru kryptowaluty bitcoin z portfela kryptowalutowego pokrzywdzonego przy użyciu przejętego klucza prywatnego i frazy odzyskiwania oraz przepadku kryptowaluty, kryptoaktywów i tokenów cyfrowych przechowywanych na giełdzie kryptowalut";

/** Before the operative part ("I. ..."), at the end of the header's description of the case. */
function addToHeader(text: string, line: string): string {
  const at = text.indexOf("\n\nI. ");
  if (at < 0) return text;
  return `${text.slice(0, at)}\n${line}${text.slice(at)}`;
}

/** Insert a paragraph right after the "zważył" line (the reasons), leaving the opening (title, summary) untouched. */
function addToReasons(text: string, paragraph: string): string {
  const at = text.indexOf(REASONS_MARK);
  if (at < 0) return text;
  const end = at + REASONS_MARK.length;
  return `${text.slice(0, end)}\n\n${paragraph}${text.slice(end)}`;
}

/** Replace every occurrence of `from` in the strings of a JSON-able value (names appear in text and extraction). */
function renameEverywhere<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value).split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1))) as T;
}

/** The generator's hook: plant the judge or the line at their indexes; every other case is returned as it came. */
export function plantAnalysisAnswers(index: number, c: GeneratedCase): GeneratedCase {
  if (c.language !== "pl") return c;
  if (judgeIndexSet.has(index) && c.judges.length > 0) {
    const planted = renameEverywhere(c, c.judges[0].name, PLANTED_JUDGE.name);
    // Two of the three paragraphs: about 14 purpose phrases a judgment, well above the ~8 citations of case law every
    // generated Polish judgment carries (measured), so the planted style wins by a margin.
    const n = PURPOSE_PARAGRAPHS.length;
    const paragraphs = `${PURPOSE_PARAGRAPHS[index % n]}\n\n${PURPOSE_PARAGRAPHS[(index + 1) % n]}`;
    return { ...planted, fullText: addToReasons(planted.fullText, paragraphs) };
  }
  if (lineIndexSet.has(index)) {
    const keywords = [...(c.keywords ?? []), ...PLANTED_LINE.keywords];
    const extracted = Array.isArray(c.extraction.keywords) ? (c.extraction.keywords as unknown[]) : [];
    return {
      ...c,
      fullText: addToReasons(addToHeader(c.fullText, LINE_HEADER), LINE_PARAGRAPH),
      keywords,
      legalTopics: [...(c.legalTopics ?? []), PLANTED_LINE.legalTopic],
      extraction: { ...c.extraction, keywords: [...extracted, ...PLANTED_LINE.keywords] },
    };
  }
  return c;
}
