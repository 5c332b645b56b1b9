"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ExportButton } from "@/components/export/export-button";
import { keyLabel, valueLabel } from "@/components/extractions/registry-view";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import {
  cohortParamValue,
  compareCohorts,
  compareExportTarget,
  parseCohortParam,
  sideRequest,
  type CohortParam,
  type CompareCohortsResponse,
  type CompareField,
} from "@/lib/client/cohorts-api";
import { listCollections } from "@/lib/client/collections-api";
import { serializeExtractionState } from "@/lib/client/extraction-url-state";
import { decodeFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, formatPercent, plural } from "@/lib/i18n/locale";
import { aggregableKeys, DEFAULT_AGGREGATE_FIELDS } from "@/lib/schema";
import { FilterSummary } from "./filter-summary";

const NO_FILTER = "";
/** The picker's value while the URL names no cohort for that side. */
const UNSET = "-";

/** The bar of one share (0..1), A or B. */
function ShareBar({ share, side }: { share: number; side: "a" | "b" }) {
  return (
    <div className="h-2 w-full rounded bg-sunken" aria-hidden="true">
      <div className={side === "a" ? "h-2 rounded bg-brand" : "h-2 rounded bg-warn"} style={{ width: `${Math.max(0, Math.min(1, share)) * 100}%` }} />
    </div>
  );
}

/** A difference with its interval on a −1..1 (or given) scale, zero marked: a small forest-plot row. */
function IntervalBar({ low, high, diff, span }: { low: number; high: number; diff: number; span: number }) {
  const at = (v: number) => `${((Math.max(-span, Math.min(span, v)) + span) / (2 * span)) * 100}%`;
  return (
    <div className="relative h-3 w-28 min-w-28" aria-hidden="true">
      <div className="absolute left-1/2 top-0 h-3 w-px bg-line" />
      <div className="absolute top-1.5 h-px bg-ink" style={{ left: at(low), width: `calc(${at(high)} - ${at(low)})` }} />
      <div className="absolute top-0.5 h-2 w-2 -translate-x-1/2 rounded-full bg-ink" style={{ left: at(diff) }} />
    </div>
  );
}

function FieldResult({ f, res }: { f: CompareField; res: CompareCohortsResponse }) {
  const { locale, t } = useI18n();
  const c = t.cohorts.compare;
  const label = keyLabel(f.field, locale);
  const pct = (x: number) => formatPercent(locale, x);
  if (f.kind === "numeric") {
    const num = (x: number | null) => (x === null ? t.common.none : formatNumber(locale, Math.round(x * 100) / 100));
    const maxCount = Math.max(1, ...f.bins.flatMap((b) => [b.a_count / Math.max(1, f.a.n), b.b_count / Math.max(1, f.b.n)]));
    return (
      <Card className="space-y-3 p-4" data-testid={`compare-field-${f.field}`}>
        <h3 className="font-semibold">{label}</h3>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-muted">{c.medianA}</dt>
          <dd data-testid="median-a">{num(f.a.median)}</dd>
          <dt className="text-muted">{c.medianB}</dt>
          <dd data-testid="median-b">{num(f.b.median)}</dd>
          <dt className="text-muted">{c.quartiles} A</dt>
          <dd>
            {num(f.a.q1)} – {num(f.a.q3)}
          </dd>
          <dt className="text-muted">{c.quartiles} B</dt>
          <dd>
            {num(f.b.q1)} – {num(f.b.q3)}
          </dd>
          <dt className="text-muted">{c.withValue}</dt>
          <dd>
            {fmt(c.countOf, { n: formatNumber(locale, f.a.n), size: formatNumber(locale, res.a.size) })} · {fmt(c.countOf, { n: formatNumber(locale, f.b.n), size: formatNumber(locale, res.b.size) })}
          </dd>
          <dt className="text-muted">{c.diff}</dt>
          <dd data-testid="median-diff">
            {num(f.diff)} {f.ci_low !== null && f.ci_high !== null ? `(${c.interval}: ${num(f.ci_low)} – ${num(f.ci_high)})` : ""}
          </dd>
        </dl>
        {f.bins.length ? (
          <figure>
            <figcaption className="mb-1 text-xs text-muted">{fmt(c.histogramTitle, { field: label })}</figcaption>
            <div className="space-y-1">
              {f.bins.map((b) => (
                <div key={b.lo} className="grid grid-cols-[7rem_1fr] items-center gap-2 text-xs">
                  <span className="truncate" title={`${num(b.lo)} – ${num(b.hi)}`}>
                    {num(b.lo)} – {num(b.hi)}
                  </span>
                  <div className="space-y-0.5">
                    <ShareBar share={b.a_count / Math.max(1, f.a.n) / maxCount} side="a" />
                    <ShareBar share={b.b_count / Math.max(1, f.b.n) / maxCount} side="b" />
                  </div>
                </div>
              ))}
            </div>
          </figure>
        ) : (
          <p className="text-sm text-muted">{c.noValues}</p>
        )}
        <p className="text-xs text-muted">{plural(locale, res.bootstrap_resamples, c.medianNote, { seed: res.seed })}</p>
      </Card>
    );
  }
  const span = Math.max(0.05, ...f.values.map((v) => Math.max(Math.abs(v.ci_low), Math.abs(v.ci_high))));
  return (
    <Card className="space-y-3 p-4" data-testid={`compare-field-${f.field}`}>
      <h3 className="font-semibold">{label}</h3>
      {f.values.length === 0 ? (
        <p className="text-sm text-muted">{c.noValues}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">{fmt(c.chartTitle, { field: label })}</caption>
            <thead>
              <tr className="text-left text-muted">
                <th className="py-1 pr-3 font-medium">{f.kind === "year" ? c.years : c.value}</th>
                <th className="py-1 pr-3 font-medium">{c.shareA}</th>
                <th className="py-1 pr-3 font-medium">{c.shareB}</th>
                <th className="py-1 pr-3 font-medium">{c.diff}</th>
                <th className="py-1 pr-3 font-medium">{c.interval}</th>
              </tr>
            </thead>
            <tbody>
              {f.values.map((v) => {
                const shown = valueLabel(f.field, v.value, locale, t);
                return (
                  <tr key={v.value} className="border-t border-line align-top" data-testid="compare-row">
                    <td className="max-w-[14rem] py-1.5 pr-3">
                      <span className="line-clamp-2" title={shown}>
                        {shown}
                      </span>
                    </td>
                    <td className="min-w-24 py-1.5 pr-3">
                      <div>{pct(v.a_share)}</div>
                      <ShareBar share={v.a_share} side="a" />
                      <div className="text-xs text-muted">{fmt(c.countOf, { n: formatNumber(locale, v.a_count), size: formatNumber(locale, res.a.size) })}</div>
                    </td>
                    <td className="min-w-24 py-1.5 pr-3">
                      <div>{pct(v.b_share)}</div>
                      <ShareBar share={v.b_share} side="b" />
                      <div className="text-xs text-muted">{fmt(c.countOf, { n: formatNumber(locale, v.b_count), size: formatNumber(locale, res.b.size) })}</div>
                    </td>
                    <td className="py-1.5 pr-3 whitespace-nowrap" data-testid="compare-diff">
                      {pct(v.diff)}
                    </td>
                    <td className="py-1.5 pr-3">
                      <div className="whitespace-nowrap text-xs" data-testid="compare-ci">
                        {pct(v.ci_low)} – {pct(v.ci_high)}
                      </div>
                      <IntervalBar low={v.ci_low} high={v.ci_high} diff={v.diff} span={span} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function SidePicker({ id, title, value, fromLink, onChange, collections }: { id: string; title: string; value: CohortParam | null; fromLink: CohortParam | null; onChange: (v: string) => void; collections: { id: string; name: string }[] }) {
  const { t } = useI18n();
  const c = t.cohorts.compare;
  const unset = !value || value.kind === "invalid";
  const current = unset ? UNSET : cohortParamValue(value);
  const linkFilter = fromLink?.kind === "filter" && fromLink.f !== NO_FILTER ? fromLink : null;
  return (
    <Card className="space-y-2 p-4">
      <h2 className="font-semibold">{title}</h2>
      <Label htmlFor={id}>{c.sideLabel}</Label>
      <select id={id} className="w-full rounded-control border border-line bg-surface px-2 py-1.5 text-sm" value={current} onChange={(e) => onChange(e.target.value)}>
        {!unset ? null : (
          <option value={UNSET} disabled>
            {t.common.none}
          </option>
        )}
        {linkFilter ? <option value={linkFilter.f}>{c.fromLink}</option> : null}
        <option value={NO_FILTER}>{c.noFilter}</option>
        {collections.map((col) => (
          <option key={col.id} value={`collection:${col.id}`}>
            {fmt(c.collectionOption, { name: col.name })}
          </option>
        ))}
      </select>
      {value?.kind === "filter" ? (
        <div className="space-y-1">
          <FilterSummary filters={value.filters} emptyText={c.noFilter} />
          <Link href={`/search/extractions${serializeExtractionState({ filter: decodeFilter(value.f).filter, q: "", page: 1, nl: "" })}`} className="text-xs underline">
            {c.openInExtractions}
          </Link>
        </div>
      ) : null}
      {value?.kind === "invalid" ? <Notice tone="warn">{c.badLink}</Notice> : null}
    </Card>
  );
}

/** /cohorts/compare?a=…&b=…: pick two cohorts (encoded filters or `collection:<id>`), compare them, export the comparison (CSV, XLSX, JSONL). */
export function ComparePage() {
  const { locale, t } = useI18n();
  const c = t.cohorts.compare;
  const router = useRouter();
  const pathname = usePathname() ?? "/cohorts/compare";
  const params = useSearchParams();
  const rawA = params.get("a");
  const rawB = params.get("b");
  const a = parseCohortParam(rawA);
  const b = parseCohortParam(rawB);
  // The filters the page was opened with stay offered in the pickers after switching away from them.
  const [linkA] = useState(a);
  const [linkB] = useState(b);
  const all = aggregableKeys();
  const fieldsParam = params.get("fields");
  const fields = (fieldsParam ? fieldsParam.split(",") : [...DEFAULT_AGGREGATE_FIELDS, "sentence_custody_months"]).filter((f) => all.includes(f)).slice(0, 20);

  const collections = useQuery({ queryKey: ["collections"], queryFn: listCollections, staleTime: 60_000 });
  const sa = a ? sideRequest(a) : null;
  const sb = b ? sideRequest(b) : null;
  const ready = sa !== null && sb !== null && fields.length > 0;
  const result = useQuery({
    queryKey: ["cohort-compare", rawA, rawB, fields.join(",")],
    queryFn: ({ signal }) => compareCohorts({ a: sa!, b: sb!, fields }, signal),
    enabled: ready,
    retry: false,
  });

  function go(next: { a?: string; b?: string; fields?: string[] }) {
    const sp = new URLSearchParams(params.toString());
    if (next.a !== undefined) sp.set("a", next.a);
    if (next.b !== undefined) sp.set("b", next.b);
    if (next.fields) sp.set("fields", next.fields.join(","));
    router.replace(`${pathname}?${sp.toString()}`, { scroll: false });
  }

  const colOptions = (collections.data ?? []).map((x) => ({ id: x.id, name: x.name }));
  const res = result.data;
  const notOwned = result.error instanceof ApiRequestError && result.error.code === "COLLECTION_NOT_FOUND";

  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-2">
        <SidePicker id="cohort-a" title={c.cohortA} value={a} fromLink={linkA} onChange={(v) => go({ a: v })} collections={colOptions} />
        <SidePicker id="cohort-b" title={c.cohortB} value={b} fromLink={linkB} onChange={(v) => go({ b: v })} collections={colOptions} />
      </div>

      <details className="rounded-card border border-line p-3">
        <summary className="cursor-pointer text-sm font-medium">
          {c.fields} ({formatNumber(locale, fields.length)})
        </summary>
        <fieldset className="mt-2 grid gap-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <legend className="sr-only">{c.fields}</legend>
          {all.map((f) => (
            <label key={f} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={fields.includes(f)}
                disabled={!fields.includes(f) && fields.length >= 20}
                onChange={(e) => go({ fields: e.target.checked ? [...fields, f] : fields.filter((x) => x !== f) })}
              />
              {keyLabel(f, locale)}
            </label>
          ))}
        </fieldset>
      </details>

      {!a || !b ? <Notice tone="info">{c.missing}</Notice> : null}
      {notOwned ? <Notice tone="danger">{c.notFound}</Notice> : result.isError ? <Notice tone="danger">{fmt(c.error, { message: errorMessage(result.error, t.common.unknownError) })}</Notice> : null}
      {ready && result.isPending ? (
        <div aria-busy="true" aria-label={c.running} className="space-y-2">
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
        </div>
      ) : null}

      {res ? (
        <section aria-labelledby="compare-h" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="compare-h" className="text-lg font-semibold">
              <span data-testid="size-a">
                {c.cohortA}: {plural(locale, res.a.size, t.cohorts.judgments)}
              </span>
              {" · "}
              <span data-testid="size-b">
                {c.cohortB}: {plural(locale, res.b.size, t.cohorts.judgments)}
              </span>
            </h2>
            <ExportButton
              what={t.exports.comparison}
              hint={t.exports.limitComparison}
              href={(format, headers) => compareExportTarget({ a: sa!, b: sb!, fields }, format, headers)}
              testId="export-compare"
            />
          </div>
          <p className="text-xs text-muted">
            <span className="mr-3 inline-flex items-center gap-1">
              <span className="inline-block h-2 w-4 rounded bg-brand" aria-hidden="true" /> {c.legendA}
            </span>
            <span className="mr-3 inline-flex items-center gap-1">
              <span className="inline-block h-2 w-4 rounded bg-warn" aria-hidden="true" /> {c.legendB}
            </span>
            {c.sharesNote}
          </p>
          {res.fields.map((f) => (
            <FieldResult key={f.field} f={f} res={res} />
          ))}
        </section>
      ) : null}
      <p className="text-xs">
        <Link href="/search/extractions" className={buttonClass("secondary", "sm")}>
          {t.nav.extractions}
        </Link>
      </p>
    </div>
  );
}
