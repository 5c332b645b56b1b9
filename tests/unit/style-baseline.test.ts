/**
 * Reasoning-style scores against a court-level baseline (lib/analysis/style-baseline.ts): the baseline's mean and
 * standard deviation per judgment from the SQL sums, the z of a judge's rate, the floor on a zero deviation, and the
 * "not enough text" rule (null with a reason, never a number) for too few judgments, phrases or baseline judgments.
 */
import { describe, expect, it } from "vitest";
import { baselineRates, notEnoughText, scoreAgainstBaseline, SD_FLOOR, type BaselineAggregate, type StyleLimits } from "@/lib/analysis/style-baseline";
import { REASONING_STYLES, type ReasoningStyle } from "@/lib/analysis/reasoning-patterns";

const limits: StyleLimits = { minJudgments: 3, minPhrases: 20, minBaselineJudgments: 4 };

/** The SQL aggregate of per-judgment counts: per style [sum, sum of squares]. */
function aggregate(perJudgment: Partial<Record<ReasoningStyle, number>>[]): BaselineAggregate {
  const styles: BaselineAggregate["styles"] = {};
  for (const s of REASONING_STYLES) {
    const xs = perJudgment.map((d) => d[s] ?? 0);
    if (xs.some((x) => x > 0)) styles[s] = [xs.reduce((a, x) => a + x, 0), xs.reduce((a, x) => a + x * x, 0)];
  }
  return { jurisdiction: "PL", court_level: "Sąd Apelacyjny", judgments: perJudgment.length, pending: 0, judges: 3, styles };
}

const counts = (c: Partial<Record<ReasoningStyle, number>>): Record<ReasoningStyle, number> => ({
  textual: 0,
  deductive: 0,
  analogical: 0,
  policy: 0,
  teleological: 0,
  ...c,
});

// Every judgment cites case law (8 analogical phrases); purpose arguments are rare: 0, 1, 2, 1.
const docs = [
  { analogical: 8, teleological: 0, textual: 2 },
  { analogical: 8, teleological: 1, textual: 1 },
  { analogical: 8, teleological: 2, textual: 3 },
  { analogical: 8, teleological: 1, textual: 2 },
];

describe("baselineRates", () => {
  it("mean and sample standard deviation per judgment, from sums and sums of squares", () => {
    const b = baselineRates(aggregate(docs), limits);
    expect(b.rates.teleological.mean).toBe(1);
    // Sample variance of 0,1,2,1 = 2/3.
    expect(b.rates.teleological.sd).toBeCloseTo(Math.sqrt(2 / 3), 3);
    expect(b.rates.analogical).toEqual({ mean: 8, sd: 0 });
    expect(b.rates.policy).toEqual({ mean: 0, sd: 0 });
    expect(b).toMatchObject({ jurisdiction: "PL", court_level: "Sąd Apelacyjny", judgments: 4, sufficient: true });
  });

  it("a level with fewer judgments than the minimum is not a baseline", () => {
    expect(baselineRates(aggregate(docs.slice(0, 3)), limits).sufficient).toBe(false);
    expect(baselineRates(aggregate([]), limits)).toMatchObject({ judgments: 0, sufficient: false, rates: { textual: { mean: 0, sd: 0 } } });
  });
});

describe("scoreAgainstBaseline", () => {
  const baseline = baselineRates(aggregate(docs), limits);

  it("z of the judge's rate per judgment; the style everyone uses alike scores 0, not 100", () => {
    // 5 judgments: 8 case-law citations each (like everyone), 10 purpose phrases each (the court's mean is 1).
    const s = scoreAgainstBaseline(counts({ analogical: 40, teleological: 50, textual: 10 }), 5, baseline, limits);
    expect(s.analogical).toEqual({ count: 40, rate: 8, z: 0, reason: null });
    expect(s.teleological.rate).toBe(10);
    expect(s.teleological.z).toBeCloseTo((10 - 1) / Math.sqrt(2 / 3), 1);
    expect(s.textual.z).toBeCloseTo((2 - 2) / baseline.rates.textual.sd, 2);
    // Policy: nobody at the level uses it (sd 0), the judge neither: 0; the floor keeps a single use finite.
    expect(s.policy.z).toBe(0);
    const once = scoreAgainstBaseline(counts({ analogical: 40, policy: 1 }), 5, baseline, limits);
    expect(once.policy.z).toBeCloseTo(0.2 / SD_FLOOR, 2);
  });

  it("a judge who writes as the court does stays within ±2 on every style", () => {
    const s = scoreAgainstBaseline(counts({ analogical: 25, teleological: 4, textual: 5 }), 3, baseline, limits);
    for (const style of REASONING_STYLES) {
      expect(s[style].reason).toBeNull();
      expect([style, Math.abs(s[style].z ?? Infinity) < 2]).toEqual([style, true]);
    }
    expect(s.teleological.z).toBeGreaterThan(0);
  });

  it("not enough text: too few judgments, too few phrases or a too small baseline give null scores with the reason", () => {
    const few = scoreAgainstBaseline(counts({ analogical: 30, teleological: 10 }), 2, baseline, limits);
    for (const style of REASONING_STYLES) expect(few[style]).toMatchObject({ z: null, reason: "few_judgments" });
    // Counts and rates stay visible: only the score is withheld.
    expect(few.analogical).toMatchObject({ count: 30, rate: 15 });
    const thin = scoreAgainstBaseline(counts({ analogical: 10, teleological: 9 }), 4, baseline, limits);
    for (const style of REASONING_STYLES) expect(thin[style]).toMatchObject({ z: null, reason: "few_phrases" });
    const small = baselineRates(aggregate(docs.slice(0, 2)), limits);
    const alone = scoreAgainstBaseline(counts({ analogical: 40, teleological: 10 }), 5, small, limits);
    for (const style of REASONING_STYLES) expect(alone[style]).toMatchObject({ z: null, reason: "small_baseline" });
  });

  it("the judge's own shortage is named before the baseline's; at the minimums a score is given", () => {
    const small = baselineRates(aggregate(docs.slice(0, 2)), limits);
    expect(notEnoughText(1, 100, small, limits)).toBe("few_judgments");
    expect(notEnoughText(5, 19, small, limits)).toBe("few_phrases");
    expect(notEnoughText(3, 20, baseline, limits)).toBeNull();
  });
});
