/**
 * Typo rules of keyword search, one source for both engines: the embedded engine's expansions
 * (lancedb/keyword-segment.ts) and the Meilisearch adapter's proper-name guard (meilisearch/name-typos.ts), which
 * must agree with Meilisearch's own `minWordSizeForTypos` (index-settings.ts: one typo from 5 letters, two from 9).
 */

import { TYPO_TOLERANCE } from "../index-settings";

const { oneTypo, twoTypos } = TYPO_TOLERANCE.minWordSizeForTypos;

/** Typo budget of a query word by length (one typo from 5 letters, two from 9). */
export function typoBudget(len: number): number {
  return len >= twoTypos ? 2 : len >= oneTypo ? 1 : 0;
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
