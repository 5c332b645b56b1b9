/**
 * Which citations the generator gives corpus judgments and which its templates cite as outside authority: two
 * disjoint spaces, so a template's citation never names a generated judgment. (A UK template sentence cites R v
 * Chin-Charles [2019] EWCA Crim 1140; one generated judgment drew that neutral citation and every judgment quoting the
 * sentence became its citer, 4,703 of them.)
 *
 * - UK: a corpus judgment is `[year] EWCA Crim n` with n drawn in 1..UK_CITATION_MAX; a draw that equals a neutral
 *   citation the sentence pools state moves to the next free number (no extra draw, so every other draw of the row
 *   and every planted answer stays as it was).
 * - PL: a corpus judgment is `II AKa n/yy` with n drawn in 1..PL_CASE_NUMBER_MAX (the same skip for a number a pool
 *   sentence states); the appellate judgments the templates cite at random ("wyrok Sądu Apelacyjnego w … z dnia …,
 *   II AKa n/yy", pl.ts `snCitation`) take n in PL_EXTERNAL_CASE_NUMBERS, above that range. The Supreme Court's
 *   numbers they cite (`V KK`, `I KZP`) are departments no corpus judgment has.
 */
import { PL_POOLS, PL_WITNESS } from "./pools-pl";
import { UK_POOLS, UK_WITNESS } from "./pools-uk";

export const UK_CITATION_MAX = 2999;
export const PL_CASE_NUMBER_MAX = 620;
/** Case numbers of the appellate judgments the PL templates cite: outside every corpus judgment's. */
export const PL_EXTERNAL_CASE_NUMBERS = { min: PL_CASE_NUMBER_MAX + 1, max: PL_CASE_NUMBER_MAX + 590 } as const;

const sentences = (pools: Record<string, readonly string[]>, more: readonly string[]) => [...Object.values(pools).flat(), ...more];

/** "2019 1140" for each "[2019] EWCA Crim 1140" the UK sentence pools state. */
export const TEMPLATE_NEUTRAL_CITATIONS: ReadonlySet<string> = new Set(
  sentences(UK_POOLS, UK_WITNESS).flatMap((s) => [...s.matchAll(/\[(\d{4})\]\s+EWCA\s+Crim\s+(\d+)/g)].map((m) => `${Number(m[1])} ${Number(m[2])}`)),
);

/** "177/14" for each "II AKa 177/14" the PL sentence pools state. */
export const TEMPLATE_PL_CASE_NUMBERS: ReadonlySet<string> = new Set(
  sentences(PL_POOLS, PL_WITNESS).flatMap((s) => [...s.matchAll(/\bII\s+AKa\s+(\d+)\/(\d{2})\b/g)].map((m) => `${Number(m[1])}/${m[2]}`)),
);

/** The next number from `n` (wrapping within 1..max) that `taken` does not hold. */
function firstFree(n: number, max: number, taken: (k: number) => boolean): number {
  let k = n;
  for (let step = 0; step < max && taken(k); step++) k = (k % max) + 1;
  return k;
}

/** The neutral citation number of a corpus judgment of `year` that drew `drawn` (1..UK_CITATION_MAX). */
export function corpusCitationNumber(year: number, drawn: number): number {
  return firstFree(drawn, UK_CITATION_MAX, (k) => TEMPLATE_NEUTRAL_CITATIONS.has(`${year} ${k}`));
}

/** The case number (n of `II AKa n/yy`) of a corpus judgment that drew `drawn` (1..PL_CASE_NUMBER_MAX), `yy` its year. */
export function corpusCaseNumber(yy: string, drawn: number): number {
  return firstFree(drawn, PL_CASE_NUMBER_MAX, (k) => TEMPLATE_PL_CASE_NUMBERS.has(`${k}/${yy}`));
}
