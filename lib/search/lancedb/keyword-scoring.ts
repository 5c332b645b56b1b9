/** BM25F constants and field weights of the keyword index (keyword-segment.ts; its typo rules: ../text/typos.ts). */
export const K1 = 1.2;
export const B = 0.75;

/** Field weights by searchable rank (1-based); anything past the table gets the last weight. */
const RANK_WEIGHTS = [10, 8, 6, 4, 3.5, 3, 3, 2.5, 1, 0.6, 0.6, 0.6, 0.5, 0.5, 0.5, 0.4, 0.4, 0.4];

export function fieldWeight(rankIndex: number): number {
  return RANK_WEIGHTS[Math.min(rankIndex, RANK_WEIGHTS.length - 1)];
}
