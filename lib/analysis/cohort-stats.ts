/**
 * Statistics of cohort compare, deterministic: the 95 % Wilson score interval of a share, Newcombe's hybrid score
 * interval of a difference of two independent shares (Newcombe 1998, method 10: built from the two Wilson intervals,
 * so it stays inside [-1, 1] and behaves at 0 and n), and a percentile bootstrap interval of a difference of medians
 * drawn with the seeded generator, so the same cohorts and seed always give the same interval.
 */
import { Rng } from "./prng";

/** The standard normal quantile of 0.975 (two-sided 95 %). */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval of x successes in n trials; n = 0 says nothing, [0, 1]. */
export function wilson(x: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = x / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denom = 1 + z2 / n;
  return { low: Math.max(0, (centre - half) / denom), high: Math.min(1, (centre + half) / denom) };
}

/** Difference of shares x1/n1 − x2/n2 with Newcombe's hybrid score interval. */
export function shareDifference(x1: number, n1: number, x2: number, n2: number, z = Z95): { diff: number; low: number; high: number } {
  const p1 = n1 > 0 ? x1 / n1 : 0;
  const p2 = n2 > 0 ? x2 / n2 : 0;
  const w1 = wilson(x1, n1, z);
  const w2 = wilson(x2, n2, z);
  const diff = p1 - p2;
  return {
    diff,
    low: diff - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: diff + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}

/** Numeric values with their multiplicities (the compare SQL counts each distinct value), in any order. */
export interface WeightedValues {
  values: number[];
  counts: number[];
}

/** The values one by one, ascending. */
export function expandSorted(w: WeightedValues): Float64Array {
  const order = w.values.map((_, i) => i).sort((i, j) => w.values[i] - w.values[j]);
  const n = w.counts.reduce((s, c) => s + c, 0);
  const out = new Float64Array(n);
  let k = 0;
  for (const i of order) for (let c = 0; c < w.counts[i]; c++) out[k++] = w.values[i];
  return out;
}

/** The q-quantile of ascending values (linear interpolation between order statistics, R type 7); null when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export const median = (sorted: ArrayLike<number>): number | null => quantileSorted(sorted, 0.5);

/**
 * A fast seeded stream for the resampling loop (mulberry32; millions of draws per compare), itself seeded from the
 * sfc32 generator so each (seed, key) has its own stream.
 */
function fastStream(key: string): () => number {
  let s = Math.floor(new Rng(key).next() * 4294967296) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ascending values as their distinct values and, per position, the index of its distinct value. */
interface Grouped {
  distinct: Float64Array;
  groupOf: Uint32Array;
}

function grouped(sorted: Float64Array): Grouped {
  const distinct: number[] = [];
  const groupOf = new Uint32Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
    groupOf[i] = distinct.length - 1;
  }
  return { distinct: Float64Array.from(distinct), groupOf };
}

/**
 * The median of one bootstrap resample: n positions drawn with replacement are tallied by their distinct value, and
 * the resample's middle order statistics are read off one cumulative pass over the distinct values (no sort).
 */
function resampleMedian(g: Grouped, next: () => number, tally: Uint32Array): number {
  const n = g.groupOf.length;
  tally.fill(0);
  for (let i = 0; i < n; i++) tally[g.groupOf[(next() * n) | 0]]++;
  const k1 = Math.floor((n - 1) / 2);
  const k2 = Math.floor(n / 2);
  let seen = 0;
  let v1 = Number.NaN;
  for (let i = 0; i < tally.length; i++) {
    seen += tally[i];
    if (Number.isNaN(v1) && seen > k1) v1 = g.distinct[i];
    if (seen > k2) return (v1 + g.distinct[i]) / 2;
  }
  return v1;
}

/**
 * Difference of medians a − b with a percentile bootstrap 95 % interval (`resamples` draws of each cohort,
 * independent streams keyed by the seed and `key`). Null when either side has no value.
 */
export function medianDifference(
  a: Float64Array,
  b: Float64Array,
  opts: { seed: number; key: string; resamples: number },
): { diff: number; low: number; high: number } | null {
  const ma = median(a);
  const mb = median(b);
  if (ma === null || mb === null) return null;
  const ra = fastStream(`cohort-compare:${opts.seed}:${opts.key}:a`);
  const rb = fastStream(`cohort-compare:${opts.seed}:${opts.key}:b`);
  const ga = grouped(a);
  const gb = grouped(b);
  const ta = new Uint32Array(ga.distinct.length);
  const tb = new Uint32Array(gb.distinct.length);
  const diffs = new Float64Array(opts.resamples);
  for (let r = 0; r < opts.resamples; r++) diffs[r] = resampleMedian(ga, ra, ta) - resampleMedian(gb, rb, tb);
  diffs.sort();
  return { diff: ma - mb, low: quantileSorted(diffs, 0.025) ?? 0, high: quantileSorted(diffs, 0.975) ?? 0 };
}
