import type { Distribution } from "@/lib/client/extractions-api";

export { tickLines } from "@/components/ui/chart-tick";

/** Rows of a distribution chart: the top values, then `other` and `null` as their own bars (never hidden). */
export interface ChartDatum {
  label: string;
  count: number;
  tone: "value" | "other" | "null";
}

export const FILL: Record<ChartDatum["tone"], string> = {
  value: "var(--color-chart-1)",
  other: "var(--color-chart-other)",
  null: "var(--color-chart-null)",
};

/**
 * The drawn height of a distribution chart in px: horizontal bars grow with their rows. The panel reserves exactly
 * this while recharts loads (it is not in the page bundle), so the chart does not push the page down when it arrives.
 */
export function chartHeight(rows: number, horizontal: boolean): number {
  return horizontal ? Math.max(120, rows * 28 + 30) : 220;
}

export function chartData(d: Distribution, labels: { other: string; null: string; value: (v: string) => string }): ChartDatum[] {
  if (d.kind === "numeric") {
    const rows: ChartDatum[] = d.buckets.map((b) => ({ label: b.lo === b.hi ? `${b.lo}` : `${b.lo}–${b.hi}`, count: b.count, tone: "value" }));
    if (d.null) rows.push({ label: labels.null, count: d.null, tone: "null" });
    return rows;
  }
  const rows: ChartDatum[] = d.values.map((v) => ({ label: d.kind === "year" ? String(v.value) : labels.value(String(v.value)), count: v.count, tone: "value" }));
  if (d.kind === "categorical" && d.other) rows.push({ label: labels.other, count: d.other, tone: "other" });
  if (d.null) rows.push({ label: labels.null, count: d.null, tone: "null" });
  return rows;
}


