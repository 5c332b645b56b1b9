/**
 * Tokenisation for analysis (topic modelling, TF-IDF labels). Words and folding are the search tokenizer's
 * (lib/search/text/tokenize.ts), so "zabójstwo" and "zabojstwo" are one term here as in search. On top of it we
 * drop what carries no topic: the search stop words, the `stopword` package's Polish and English lists (folded),
 * legal boilerplate measured on the demo corpus (data/boilerplate.json, see docs/analytics.md), numbers, and
 * words shorter than three letters (Polish and English function words and court abbreviations such as "k", "kk").
 */
import { eng, pol } from "stopword";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { fold, spans, words } from "@/lib/search/text/tokenize";
import boilerplate from "./data/boilerplate.json";
import stopExtra from "./data/stop-extra.json";

export const MIN_TOKEN_LENGTH = 3;

/** Terms measured as boilerplate (document frequency above the threshold stated in the data file). */
export const BOILERPLATE_TERMS: ReadonlySet<string> = new Set(boilerplate.terms.map((t) => t.term));

/**
 * Stop words before measurement (search list + package lists + the curated month names and titles of
 * data/stop-extra.json), folded: what boilerplate measurement starts from.
 */
export const LANGUAGE_STOPWORDS: ReadonlySet<string> = new Set([
  ...STOPWORDS,
  ...pol.map((w) => fold(w)),
  ...eng.map((w) => fold(w)),
  ...stopExtra.groups.flatMap((g) => g.terms),
]);

/** Every term analysis ignores. */
export const ANALYSIS_STOPWORDS: ReadonlySet<string> = new Set([...LANGUAGE_STOPWORDS, ...BOILERPLATE_TERMS]);

const DIGIT_RE = /\d/;

/** True when a folded word can be a term: long enough, no digits (case numbers, dates, article numbers). */
export function isCandidateTerm(term: string): boolean {
  return term.length >= MIN_TOKEN_LENGTH && !DIGIT_RE.test(term);
}

/**
 * Folded analysis terms of a text, in order, stop words and boilerplate removed, and `exclude` too (the document's
 * own names: see nameTerms in ./document.ts).
 */
export function analysisTokens(
  text: string,
  stop: ReadonlySet<string> = ANALYSIS_STOPWORDS,
  exclude?: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (isCandidateTerm(w) && !stop.has(w) && !exclude?.has(w)) out.push(w);
  return out;
}

/**
 * Surface forms seen for each folded term (how it was written, e.g. "zabójstwo" for "zabojstwo"), counted, so a label
 * can show the word a lawyer would write. Only terms in `keep` are recorded.
 */
export function countSurfaceForms(text: string, keep: ReadonlySet<string>, into: Map<string, Map<string, number>>): void {
  for (const s of spans(text)) {
    if (!keep.has(s.term)) continue;
    const surface = text.slice(s.start, s.end).toLowerCase();
    let m = into.get(s.term);
    if (!m) into.set(s.term, (m = new Map()));
    m.set(surface, (m.get(surface) ?? 0) + 1);
  }
}

/** Most frequent surface form (ties: the code-point-smallest, so the choice never depends on input order). */
export function preferredSurface(term: string, forms: Map<string, Map<string, number>>): string {
  const m = forms.get(term);
  if (!m) return term;
  let best = term;
  let bestN = -1;
  for (const [s, n] of m) if (n > bestN || (n === bestN && s < best)) [best, bestN] = [s, n];
  return best;
}
