/** BM25F constants, field weights and the typo rules of the keyword index (keyword-segment.ts). */
export const K1 = 1.2;
export const B = 0.75;

/** Field weights by searchable rank (1-based); anything past the table gets the last weight. */
const RANK_WEIGHTS = [10, 8, 6, 4, 3.5, 3, 3, 2.5, 1, 0.6, 0.6, 0.6, 0.5, 0.5, 0.5, 0.4, 0.4, 0.4];

export function fieldWeight(rankIndex: number): number {
  return RANK_WEIGHTS[Math.min(rankIndex, RANK_WEIGHTS.length - 1)];
}

/** Typo budget of a query word by length (one typo from 5 letters, two from 9). */
export function typoBudget(len: number): number {
  return len >= 9 ? 2 : len >= 5 ? 1 : 0;
}

/** Levenshtein distance bounded by `max` (returns max+1 when larger). */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}
