import { describe, expect, it } from "vitest";
import { expandSorted, median, medianDifference, quantileSorted, shareDifference, wilson } from "@/lib/analysis/cohort-stats";

// Published values: Newcombe, "Two-sided confidence intervals for the single proportion" (1998), 81/263 by the
// score method, and "Interval estimation for the difference between independent proportions" (1998), method 10.
describe("cohort compare statistics", () => {
  it("Wilson interval matches Newcombe's 81/263 example", () => {
    const w = wilson(81, 263);
    expect(w.low).toBeCloseTo(0.2553, 4);
    expect(w.high).toBeCloseTo(0.3662, 4);
  });

  it("Newcombe hybrid score interval matches the paper's examples", () => {
    const a = shareDifference(56, 70, 48, 80);
    expect(a.diff).toBeCloseTo(0.2, 10);
    expect(a.low).toBeCloseTo(0.0524, 4);
    expect(a.high).toBeCloseTo(0.3339, 4);
    const c = shareDifference(9, 10, 3, 10);
    expect(c.low).toBeCloseTo(0.1705, 4);
    expect(c.high).toBeCloseTo(0.809, 4);
    // Both empty of the value: the interval still brackets 0 and stays within [-1, 1].
    const z = shareDifference(0, 10, 0, 20);
    expect(z.diff).toBe(0);
    expect(z.low).toBeLessThan(0);
    expect(z.high).toBeGreaterThan(0);
  });

  it("an empty side says nothing: Wilson [0, 1]", () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it("medians of weighted values, and a bootstrap interval that is the same for the same seed", () => {
    const a = expandSorted({ values: [10, 1, 3], counts: [1, 2, 2] }); // 1 1 3 3 10
    expect([...a]).toEqual([1, 1, 3, 3, 10]);
    expect(median(a)).toBe(3);
    expect(median(expandSorted({ values: [1, 2], counts: [1, 1] }))).toBe(1.5);
    const b = expandSorted({ values: [2, 4], counts: [30, 30] });
    const big = expandSorted({ values: [5, 6, 7, 40], counts: [25, 25, 25, 25] });
    const one = medianDifference(big, b, { seed: 7, key: "f", resamples: 500 });
    const two = medianDifference(big, b, { seed: 7, key: "f", resamples: 500 });
    expect(one).toEqual(two);
    expect(one!.diff).toBe(6.5 - 3);
    expect(one!.low).toBeLessThanOrEqual(one!.diff);
    expect(one!.high).toBeGreaterThanOrEqual(one!.diff);
    // A constant cohort has no spread: every resample has the same median.
    const flat = medianDifference(expandSorted({ values: [4], counts: [9] }), expandSorted({ values: [1], counts: [5] }), { seed: 1, key: "k", resamples: 200 });
    expect(flat).toEqual({ diff: 3, low: 3, high: 3 });
    expect(medianDifference(new Float64Array(0), b, { seed: 1, key: "k", resamples: 100 })).toBeNull();
  });

  it("the order-statistic bootstrap gives the distribution of tallying n draws per resample", () => {
    // The reference: n indices drawn per resample (a seeded LCG), the resample sorted and its median read.
    let state = 12345;
    const uniform = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
    const pct = (xs: number[], q: number) => quantileSorted(Float64Array.from(xs).sort(), q)!;
    const zero = expandSorted({ values: [0], counts: [7] });
    for (const n of [101, 100]) {
      // Skewed values with ties, like months of custody.
      const x = Float64Array.from({ length: n }, (_, i) => Math.floor((i * i) / 40)).sort();
      const ref: number[] = [];
      for (let r = 0; r < 20_000; r++) {
        const y = Float64Array.from({ length: n }, () => x[Math.floor(uniform() * n)]).sort();
        ref.push(median(y)!);
      }
      // b is constant, so the interval of a − b is the interval of a's resample medians.
      const got = medianDifference(x, zero, { seed: 3, key: "check", resamples: 20_000 })!;
      const spread = pct(ref, 0.975) - pct(ref, 0.025);
      expect(Math.abs(got.low - pct(ref, 0.025)), `n=${n} low`).toBeLessThanOrEqual(0.03 * spread + 1);
      expect(Math.abs(got.high - pct(ref, 0.975)), `n=${n} high`).toBeLessThanOrEqual(0.03 * spread + 1);
    }
  });
});

