"use client";

/**
 * The charts of a topic card (recharts), loaded lazily by the topics page so recharts never ships with other pages:
 * keyword weights as horizontal bars, the per-period weight as a line. Each figure carries its numbers as text for
 * screen readers.
 */
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const pct = (w: number) => `${Math.round(w * 1000) / 10} %`;

export function KeywordChart({ keywords, title }: { keywords: { term: string; weight: number }[]; title: string }) {
  const height = Math.max(120, keywords.length * 24 + 24);
  return (
    <figure aria-label={title} style={{ height }} className="w-full">
      <figcaption className="sr-only">
        {title}: {keywords.map((k) => `${k.term} ${pct(k.weight)}`).join(", ")}
      </figcaption>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={keywords} layout="vertical" margin={{ top: 2, right: 16, bottom: 2, left: 4 }}>
          <CartesianGrid horizontal={false} stroke="var(--color-line)" />
          <XAxis type="number" tick={{ fontSize: 11 }} tickFormatter={pct} />
          <YAxis type="category" dataKey="term" width={120} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip formatter={(v) => pct(Number(v))} cursor={{ fill: "var(--color-sunken)" }} />
          <Bar dataKey="weight" isAnimationActive={false} fill="var(--color-chart-1)" radius={[0, 3, 3, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function TrendChart({ points, title }: { points: { period: string; weight: number }[]; title: string }) {
  const data = points.map((p) => ({ label: p.period.slice(0, 4) === p.period.slice(11, 15) ? p.period.slice(0, 7) : p.period.slice(0, 4), ...p }));
  return (
    <figure aria-label={title} className="h-36 w-full">
      <figcaption className="sr-only">
        {title}: {points.map((p) => `${p.period} ${pct(p.weight)}`).join(", ")}
      </figcaption>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 6, right: 12, bottom: 2, left: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--color-line)" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis tick={{ fontSize: 11 }} width={44} tickFormatter={pct} />
          <Tooltip formatter={(v) => pct(Number(v))} labelFormatter={(_l, p) => String(p?.[0]?.payload?.period ?? "")} />
          <Line type="monotone" dataKey="weight" stroke="var(--color-chart-2)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
