"use client";

/**
 * Distribution charts (recharts). This module is loaded lazily by the aggregate panel so recharts never ships with
 * the rest of the extraction page or with /search.
 */
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { WrappedTick } from "@/components/ui/chart-tick";
import { FILL, chartHeight, type ChartDatum } from "./chart-data";

/** Category axis width in px: WrappedTick wraps labels to fit it at 11 px. */
const AXIS_WIDTH = 140;

/** Horizontal bars for categories (long labels read well on phones), vertical bars for histograms and years. */
export function DistributionChart({ data, horizontal, title }: { data: ChartDatum[]; horizontal: boolean; title: string }) {
  const height = chartHeight(data.length, horizontal);
  return (
    <figure aria-label={title} style={{ height }} className="w-full">
      <ResponsiveContainer width="100%" height="100%">
        {horizontal ? (
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
            <CartesianGrid horizontal={false} stroke="var(--color-line)" />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="label" width={AXIS_WIDTH} tick={<WrappedTick />} interval={0} />
            <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
            <Bar dataKey="count" isAnimationActive={false} radius={[0, 3, 3, 0]}>
              {data.map((d, i) => (
                <Cell key={i} fill={FILL[d.tone]} />
              ))}
            </Bar>
          </BarChart>
        ) : (
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
            <CartesianGrid vertical={false} stroke="var(--color-line)" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
            <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
            <Bar dataKey="count" isAnimationActive={false} radius={[3, 3, 0, 0]}>
              {data.map((d, i) => (
                <Cell key={i} fill={FILL[d.tone]} />
              ))}
            </Bar>
          </BarChart>
        )}
      </ResponsiveContainer>
    </figure>
  );
}
