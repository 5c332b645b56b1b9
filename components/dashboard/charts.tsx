"use client";

/**
 * Dashboard charts (recharts), shared by /dashboard and /admin/documents. Each chart has its numbers in a table under a
 * <details>, so screen-reader and keyboard users get the same data as the picture.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { WrappedTick } from "@/components/ui/chart-tick";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber } from "@/lib/i18n/locale";
import type { GroupCoverage } from "./completeness";

function DataTable({ head, rows }: { head: string[]; rows: (string | number)[][] }) {
  const { t } = useI18n();
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-muted">{t.admin.dashboard.chartTable}</summary>
      <table className="mt-2 w-full text-left">
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="pr-3">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t border-line">
              {r.map((c, j) => (
                <td key={j} className="pr-3 tabular-nums">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Decisions per year, PL and UK stacked. */
export function PerYearChart({ data, title }: { data: { year: number | null; PL: number; UK: number }[]; title: string }) {
  const { locale, t } = useI18n();
  const rows = data.filter((d): d is { year: number; PL: number; UK: number } => d.year !== null);
  return (
    <figure aria-label={title}>
      <div style={{ height: 260 }} className="w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
            <CartesianGrid vertical={false} stroke="var(--color-line)" />
            <XAxis dataKey="year" tick={{ fontSize: 11 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} />
            <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
            <Legend />
            <Bar dataKey="PL" stackId="j" fill="var(--color-chart-1)" isAnimationActive={false} />
            <Bar dataKey="UK" stackId="j" fill="var(--color-chart-2)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <DataTable head={[t.admin.dashboard.year, "PL", "UK"]} rows={rows.map((r) => [r.year, formatNumber(locale, r.PL), formatNumber(locale, r.UK)])} />
    </figure>
  );
}

/** Horizontal bars of named counts (top courts, keywords). */
export function CountBars({ data, title }: { data: { name: string; count: number }[]; title: string }) {
  const { locale, t } = useI18n();
  return (
    <figure aria-label={title}>
      <div style={{ height: Math.max(140, data.length * 28 + 30) }} className="w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
            <CartesianGrid horizontal={false} stroke="var(--color-line)" />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="name" width={180} tick={<WrappedTick perLine={28} />} interval={0} />
            <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
            <Bar dataKey="count" fill="var(--color-chart-1)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <DataTable head={["", t.admin.dashboard.count]} rows={data.map((d) => [d.name, formatNumber(locale, d.count)])} />
    </figure>
  );
}

/** Completeness per field group as percentages. */
export function CoverageBars({ groups, title }: { groups: GroupCoverage[]; title: string }) {
  const { t } = useI18n();
  const data = groups.map((g) => ({ name: g.label, percent: g.coverage === null ? 0 : Math.round(g.coverage * 1000) / 10 }));
  return (
    <figure aria-label={title}>
      <div style={{ height: Math.max(140, data.length * 28 + 30) }} className="w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
            <CartesianGrid horizontal={false} stroke="var(--color-line)" />
            <XAxis type="number" domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="name" width={180} tick={{ fontSize: 11 }} interval={0} />
            <Tooltip cursor={{ fill: "var(--color-sunken)" }} formatter={(v) => `${String(v)}%`} />
            <Bar dataKey="percent" fill="var(--color-chart-2)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <DataTable
        head={[t.admin.dashboard.group, t.admin.dashboard.coverage]}
        rows={groups.map((g) => [g.label, g.coverage === null ? "—" : `${(g.coverage * 100).toFixed(1)}%`])}
      />
    </figure>
  );
}
