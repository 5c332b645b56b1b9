"use client";

import * as Popover from "@radix-ui/react-popover";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { aggregate, aggregateExportHref, aggregateRequest, type AggregateResponse, type Distribution } from "@/lib/client/extractions-api";
import { ExportButton } from "@/components/export/export-button";
import type { ApiFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, formatPercent, plural } from "@/lib/i18n/locale";
import { DEFAULT_AGGREGATE_FIELDS, aggregableKeys } from "@/lib/schema";
import { chartData, chartHeight } from "./chart-data";
import { keyLabel, valueLabel } from "./registry-view";

// recharts stays out of the page bundle; the panel starts fetching it on mount, in parallel with the aggregate call.
const loadCharts = () => import("./aggregate-charts");
const DistributionChart = dynamic(() => loadCharts().then((m) => m.DistributionChart), {
  ssr: false,
  // Fills the box FieldChart sizes from the data (chartHeight), so nothing moves when the chart replaces it.
  loading: () => <Skeleton className="h-full w-full" />,
});

interface Settings {
  fields: string[];
  sample: string;
  seed: string;
}

const INT32 = { min: -2147483648, max: 2147483647 };

/** The aggregate panel: pick fields, see their distributions over the cohort, with coverage and an optional sample. */
export function AggregatePanel({ filters, textQuery, initial = null }: { filters: ApiFilter; textQuery: string; initial?: AggregateResponse | null }) {
  const { locale, t } = useI18n();
  useEffect(() => {
    void loadCharts();
  }, []);
  const [defaults] = useState<Settings>(() => ({ fields: [...DEFAULT_AGGREGATE_FIELDS], sample: "", seed: "42" }));
  const [draft, setDraft] = useState<Settings>(defaults);
  const [applied, setApplied] = useState<Settings>(defaults);
  const sampleSize = applied.sample ? Number(applied.sample) : undefined;
  const seed = applied.seed ? Number(applied.seed) : undefined;

  const q = useQuery({
    queryKey: ["aggregate", filters, textQuery, applied],
    queryFn: ({ signal }) => aggregate(aggregateRequest(filters, textQuery, { fields: applied.fields, sampleSize, seed }), signal),
    // The server rendered the default settings' aggregate for the URL the page was loaded with.
    initialData: initial && applied === defaults ? initial : undefined,
    enabled: applied.fields.length > 0,
    staleTime: 60_000,
  });

  const sampleValid = draft.sample === "" || (/^\d+$/.test(draft.sample) && Number(draft.sample) >= 1 && Number(draft.sample) <= 20000);
  const seedValid = draft.seed === "" || (/^-?\d+$/.test(draft.seed) && Number(draft.seed) >= INT32.min && Number(draft.seed) <= INT32.max);
  const all = aggregableKeys();

  return (
    <section aria-labelledby="agg-h" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="agg-h" className="text-lg font-semibold">
          {t.extr.aggregate}
        </h2>
        {q.data ? <AggregateSummary data={q.data} /> : null}
      </div>

      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (sampleValid && seedValid && draft.fields.length) setApplied(draft);
        }}
      >
        <Popover.Root>
          <Popover.Trigger className={buttonClass("secondary", "sm", "h-9")}>
            {t.extr.aggregateFields} ({draft.fields.length})
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content align="start" sideOffset={6} className="z-40 max-h-80 w-72 overflow-y-auto rounded-card border border-line bg-surface p-3 shadow-pop" aria-label={t.extr.aggregateFields}>
              <ul className="space-y-1">
                {all.map((k) => (
                  <li key={k}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand"
                        checked={draft.fields.includes(k)}
                        disabled={!draft.fields.includes(k) && draft.fields.length >= 50}
                        onChange={(e) => setDraft((d) => ({ ...d, fields: e.target.checked ? [...d.fields, k] : d.fields.filter((x) => x !== k) }))}
                      />
                      {keyLabel(k, locale)}
                    </label>
                  </li>
                ))}
              </ul>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
        <div>
          <Label htmlFor="agg-sample" className="text-xs">
            {t.extr.sample}
          </Label>
          <Input id="agg-sample" inputMode="numeric" className="h-9 w-36" value={draft.sample} aria-invalid={!sampleValid || undefined} onChange={(e) => setDraft((d) => ({ ...d, sample: e.target.value.trim() }))} placeholder="1–20000" />
        </div>
        <div>
          <Label htmlFor="agg-seed" className="text-xs">
            {t.extr.seed}
          </Label>
          <Input id="agg-seed" inputMode="numeric" className="h-9 w-28" value={draft.seed} aria-invalid={!seedValid || undefined} disabled={!draft.sample} onChange={(e) => setDraft((d) => ({ ...d, seed: e.target.value.trim() }))} />
        </div>
        <Button type="submit" size="sm" className="h-9" disabled={!sampleValid || !seedValid || draft.fields.length === 0}>
          {t.extr.aggregateRun}
        </Button>
      </form>

      <ExportButton
        what={t.exports.distributions}
        disabled={!q.data}
        href={(format, headers) => aggregateExportHref(aggregateRequest(filters, textQuery, { fields: applied.fields, sampleSize, seed }), format, headers)}
        testId="export-aggregate"
      />

      {q.isError ? <Notice tone="danger">{fmt(t.extr.aggError, { message: errorMessage(q.error, t.common.unknownError) })}</Notice> : null}

      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {applied.fields.map((k) => {
          const d = q.data?.fields[k];
          return (
            <Card key={k} className="min-h-[18rem] min-w-0 p-4" data-chart={k}>
              <h3 className="font-medium">{keyLabel(k, locale)}</h3>
              {d && q.data ? <FieldChart field={k} d={d} base={q.data.sample_n} /> : q.isPending || q.isFetching ? <Skeleton className="mt-3 h-[220px] w-full" /> : null}
            </Card>
          );
        })}
      </div>
    </section>
  );
}

function AggregateSummary({ data }: { data: AggregateResponse }) {
  const { locale, t } = useI18n();
  return (
    <p className="text-sm text-muted" data-testid="aggregate-total">
      {plural(locale, data.total, t.extr.cohort)}
      {data.sample_n < data.total && data.seed !== null ? ` · ${fmt(t.extr.sampled, { n: formatNumber(locale, data.sample_n), seed: data.seed })}` : null}
    </p>
  );
}

function FieldChart({ field, d, base }: { field: string; d: Distribution; base: number }) {
  const { locale, t } = useI18n();
  const data = chartData(d, { other: t.extr.other, null: t.extr.nullValue, value: (v) => valueLabel(field, v, locale, t) });
  const pct = base > 0 ? formatPercent(locale, d.covered / base) : "—";
  const title = fmt(t.extr.chartOf, { label: keyLabel(field, locale) });
  const horizontal = d.kind === "categorical";
  return (
    <div className="mt-1">
      <p className="text-xs text-muted">
        {fmt(t.extr.coverage, { pct, covered: formatNumber(locale, d.covered), total: formatNumber(locale, base) })}
        {d.kind === "categorical" && d.multi ? ` · ${t.extr.multiNote}` : null}
      </p>
      {data.length ? (
        <div style={{ height: chartHeight(data.length, horizontal) }}>
          <DistributionChart data={data} horizontal={horizontal} title={title} />
        </div>
      ) : (
        <p className="mt-6 text-center text-sm text-muted">{t.extr.noResults}</p>
      )}
      {/* A table can be no narrower than its content, so the visually hidden wrapper is a div. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <tbody>
            {data.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                <td>{r.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
