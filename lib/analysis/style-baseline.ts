/**
 * Reasoning-style scores relative to a baseline: a judge's phrase rate per style (phrases per judgment) as a z-score
 * against the per-judgment rates of the other judgments of the same court level. Shares of the judge's own phrases
 * (the earlier max-normalised 0-100) said "Analogical 100" for every judge, because every judgment cites case law;
 * what distinguishes a judge is how far each style sits from what the court usually writes.
 *
 * z = (judge's rate − baseline mean) / baseline standard deviation, both per judgment. A score needs enough text on
 * both sides: below the minimum judgments or phrases of the judge, or the minimum judgments of the baseline, the score
 * is null with the reason ("not enough text"), never 0 or an extreme.
 */
import { REASONING_STYLES, type ReasoningStyle } from "./reasoning-patterns";

/** Per style: sum and sum of squares of per-judgment phrase counts over the baseline's judgments. */
export type StyleMoments = Partial<Record<ReasoningStyle, readonly [sum: number, sumSquares: number]>>;

export interface BaselineAggregate {
  jurisdiction: string;
  court_level: string;
  /** Judgments of the level with current phrase counts (the judge's own left out). */
  judgments: number;
  /** Judgments of the level still without counts (not in the baseline). */
  pending: number;
  /** Distinct judges named on the counted judgments. */
  judges: number;
  styles: StyleMoments;
}

export interface BaselineRate {
  /** Mean phrases of the style per judgment. */
  mean: number;
  /** Standard deviation of the per-judgment count (sample). */
  sd: number;
}

export interface StyleBaseline {
  /** What the scores are measured against: the judge's most frequent jurisdiction and court level. */
  jurisdiction: string;
  court_level: string;
  judgments: number;
  judges: number;
  pending: number;
  rates: Record<ReasoningStyle, BaselineRate>;
  /** False when the baseline has fewer judgments than the minimum (every score is then null). */
  sufficient: boolean;
}

export type NotEnoughText = "few_judgments" | "few_phrases" | "small_baseline";

export interface StyleScore {
  /** The judge's phrases of this style over the scored judgments. */
  count: number;
  /** Phrases per scored judgment. */
  rate: number;
  /** Standard deviations from the baseline mean; null when there is not enough text. */
  z: number | null;
  /** Why z is null ("not enough text"), else null. */
  reason: NotEnoughText | null;
}

export interface StyleLimits {
  minJudgments: number;
  minPhrases: number;
  minBaselineJudgments: number;
}

/**
 * The smallest standard deviation a z is divided by (phrases per judgment): a style no judgment of the level uses has
 * sd 0, and a judge using it once would otherwise be infinitely far out.
 */
export const SD_FLOOR = 0.25;

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export function baselineRates(agg: BaselineAggregate, limits: Pick<StyleLimits, "minBaselineJudgments">): StyleBaseline {
  const n = agg.judgments;
  const rates = {} as Record<ReasoningStyle, BaselineRate>;
  for (const s of REASONING_STYLES) {
    const [sum, ss] = agg.styles[s] ?? [0, 0];
    const mean = n > 0 ? sum / n : 0;
    const variance = n > 1 ? Math.max(0, (ss - (sum * sum) / n) / (n - 1)) : 0;
    rates[s] = { mean: round(mean, 3), sd: round(Math.sqrt(variance), 3) };
  }
  return {
    jurisdiction: agg.jurisdiction,
    court_level: agg.court_level,
    judgments: n,
    judges: agg.judges,
    pending: agg.pending,
    rates,
    sufficient: n >= limits.minBaselineJudgments,
  };
}

/** Why a judge's styles cannot be scored, or null when they can. The judge's own shortage is named first. */
export function notEnoughText(judgments: number, phrases: number, baseline: StyleBaseline, limits: StyleLimits): NotEnoughText | null {
  if (judgments < limits.minJudgments) return "few_judgments";
  if (phrases < limits.minPhrases) return "few_phrases";
  if (!baseline.sufficient || baseline.judgments < limits.minBaselineJudgments) return "small_baseline";
  return null;
}

/** Score a judge's per-style phrase counts over `judgments` scored judgments against the baseline. */
export function scoreAgainstBaseline(
  counts: Record<ReasoningStyle, number>,
  judgments: number,
  baseline: StyleBaseline,
  limits: StyleLimits,
): Record<ReasoningStyle, StyleScore> {
  const phrases = REASONING_STYLES.reduce((a, s) => a + counts[s], 0);
  const reason = notEnoughText(judgments, phrases, baseline, limits);
  const out = {} as Record<ReasoningStyle, StyleScore>;
  for (const s of REASONING_STYLES) {
    const rate = judgments > 0 ? counts[s] / judgments : 0;
    const { mean, sd } = baseline.rates[s];
    out[s] = {
      count: counts[s],
      rate: round(rate, 3),
      z: reason ? null : round((rate - mean) / Math.max(sd, SD_FLOOR), 2),
      reason,
    };
  }
  return out;
}
