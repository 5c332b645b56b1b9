/**
 * Time periods over decision dates and the trend of a per-period series. Periods are equal spans of calendar days
 * between the earliest and the latest date of the documents (not equal counts: the corpus grows over the years, and
 * a trend is about time). Trend = least-squares slope of the per-period weight against the period index, divided by
 * the mean weight (so a topic's trend does not depend on how big it is); only periods holding documents count.
 */

export interface Period {
  /** ISO interval "from/to" (both inclusive dates). */
  period: string;
  from: string;
  to: string;
  documents: number;
}

export type Trend = "emerging" | "stable" | "declining";

/** Relative slope above which a topic is emerging (below its negative: declining). */
export const TREND_THRESHOLD = 0.1;

const DAY_MS = 86_400_000;

function dayOf(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}

function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Split the dates into at most `count` periods (fewer when the dates span fewer days). Returns the periods and, per
 * input date, its period index (-1 for a missing date).
 */
export function splitPeriods(dates: readonly (string | undefined)[], count: number): { periods: Period[]; index: number[] } {
  const days = dates.map((d) => (d === undefined ? undefined : dayOf(d)));
  const known = days.filter((d): d is number => d !== undefined && Number.isFinite(d));
  if (known.length === 0) return { periods: [], index: dates.map(() => -1) };
  let min = known[0];
  let max = known[0];
  for (const d of known) {
    if (d < min) min = d;
    if (d > max) max = d;
  }
  const span = max - min + 1;
  const p = Math.max(1, Math.min(count, span));
  const starts = Array.from({ length: p }, (_, i) => min + Math.floor((i * span) / p));
  const periods: Period[] = starts.map((s, i) => {
    const end = i + 1 < p ? starts[i + 1] - 1 : max;
    const from = isoOfDay(s);
    const to = isoOfDay(end);
    return { period: `${from}/${to}`, from, to, documents: 0 };
  });
  const index = days.map((d) => {
    if (d === undefined || !Number.isFinite(d)) return -1;
    let i = p - 1;
    while (i > 0 && d < starts[i]) i--;
    periods[i].documents++;
    return i;
  });
  return { periods, index };
}

/** Relative slope of a series over the periods that have documents (0 when fewer than two or the mean is 0). */
export function relativeSlope(weights: readonly number[], documents: readonly number[]): number {
  const xs: number[] = [];
  const ys: number[] = [];
  weights.forEach((w, i) => {
    if (documents[i] > 0) {
      xs.push(i);
      ys.push(w);
    }
  });
  if (xs.length < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  if (my <= 0) return 0;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  return sxy / sxx / my;
}

export function trendOf(slope: number): Trend {
  return slope > TREND_THRESHOLD ? "emerging" : slope < -TREND_THRESHOLD ? "declining" : "stable";
}
