"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper, flexRender, getCoreRowModel, getFilteredRowModel, useReactTable, type ColumnFiltersState } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { Pagination } from "@/components/pagination";
import { errorMessage } from "@/lib/client/api";
import { cancelJob, deleteJob, exportHref, getJob, getResults, isActive, retryJob, type ResultField, type ResultRow } from "@/lib/client/extraction-jobs-api";
import { useI18n } from "@/lib/i18n/client";
import { fieldLabel } from "@/lib/schema/labels";
import { fmt, formatDate, formatNumber } from "@/lib/i18n/locale";
import { ExportMenu } from "./export-menu";
import { JobProgress, JobStatusBadge } from "./job-progress";

const PAGE_SIZE = 200;

function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join("; ");
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Per field: filled, empty and not extractable counts over the completed documents. */
function FieldCounts({ fields }: { fields: ResultField[] }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="field-counts-h" className="space-y-2">
      <h2 id="field-counts-h" className="font-semibold">
        {t.extraction.fieldCounts}
      </h2>
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm" data-testid="field-counts">
          <thead>
            <tr>
              <th scope="col" className="border-b border-line px-2 py-1">{t.extraction.fieldCol}</th>
              <th scope="col" className="border-b border-line px-2 py-1 text-right">{t.extraction.filledCol}</th>
              <th scope="col" className="border-b border-line px-2 py-1 text-right">{t.extraction.emptyCol}</th>
              <th scope="col" className="border-b border-line px-2 py-1 text-right">{t.extraction.notExtractableCol}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name} className="border-b border-line" data-field={f.name}>
                <th scope="row" className="px-2 py-1 font-normal">
                  {f.label}
                  {f.extractable ? null : <span className="ml-2 text-xs text-ink-muted">({t.extraction.needsModel})</span>}
                </th>
                <td className="px-2 py-1 text-right tabular-nums">{formatNumber(locale, f.counts.filled)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{formatNumber(locale, f.counts.empty)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{formatNumber(locale, f.counts.not_extractable)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * /extractions/jobs/[id]: live progress, the per-field counts, the results table with a filter per field (a field only
 * a model can fill reads "needs a model", never a blank), failed rows, retry, export, cancel.
 */
export function JobDetail({ id }: { id: string }) {
  const { t, locale } = useI18n();
  const qc = useQueryClient();
  const router = useRouter();
  const [page, setPage] = useState(1);
  const [confirm, setConfirm] = useState<"cancel" | "delete" | null>(null);
  const [filters, setFilters] = useState<ColumnFiltersState>([]);
  const job = useQuery({
    queryKey: ["extraction-job", id],
    queryFn: () => getJob(id),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data) ? 1500 : false),
  });
  const active = job.data ? isActive(job.data) : false;
  const results = useQuery({
    queryKey: ["extraction-results", id, page, job.data?.progress.done],
    queryFn: () => getResults(id, { page, page_size: PAGE_SIZE }),
    enabled: Boolean(job.data),
  });
  const failed = useQuery({
    queryKey: ["extraction-failed", id, job.data?.progress.failed],
    queryFn: () => getResults(id, { status: "failed", page_size: 100 }),
    enabled: Boolean(job.data?.progress.failed),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ["extraction-job", id] });
  const cancel = useMutation({ mutationFn: () => cancelJob(id), onSuccess: refresh });
  const retry = useMutation({ mutationFn: () => retryJob(id), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => deleteJob(id), onSuccess: () => router.push("/extractions/jobs") });

  const fields = results.data?.fields;
  const columns = useMemo(() => {
    const h = createColumnHelper<ResultRow>();
    return [
      h.accessor((r) => r.case_number ?? r.document_id.slice(0, 8), { id: "document", header: t.extraction.document }),
      h.accessor("status", { header: t.extraction.statusCol, cell: (c) => t.extraction[`doc_${c.getValue()}`] }),
      ...(fields ?? []).map((f) => {
        const header = () => <span title={f.name}>{fieldLabel(f.name, locale)}</span>;
        return f.extractable
          ? h.accessor((r) => cell(r.values?.[f.name]), { id: `f:${f.name}`, header })
          : h.accessor(() => t.extraction.needsModel, {
              id: `f:${f.name}`,
              header,
              cell: (c) => <span className="text-ink-muted italic">{c.getValue()}</span>,
            });
      }),
    ];
  }, [fields, t, locale]);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is built to re-render, not to be memoised
  const table = useReactTable({
    data: results.data?.results ?? [],
    columns,
    state: { columnFilters: filters },
    onColumnFiltersChange: setFilters,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });

  if (job.isPending) return <Skeleton className="h-40 w-full" />;
  if (job.isError) return <Notice tone="danger">{fmt(t.extraction.jobLoadError, { message: errorMessage(job.error, "") })}</Notice>;
  const j = job.data;
  const needModel = (fields ?? []).filter((f) => !f.extractable);
  const foundNothing = (fields ?? []).filter((f) => f.extractable);
  const mutationError = cancel.error ?? retry.error ?? remove.error;
  return (
    <div className="space-y-6">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">
            {j.schema.key === "base" ? t.extraction.baseSchema : j.schema.name}
            {j.schema.version ? ` · v${j.schema.version}` : ""}
          </h2>
          <JobStatusBadge status={j.status} />
        </div>
        <JobProgress job={j} />
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-ink-muted">{t.extraction.modeLabel}</dt>
          <dd data-testid="job-mode">{t.extraction[`mode_${j.mode}`]}</dd>
          <dt className="text-ink-muted">{t.extraction.createdAt}</dt>
          <dd>{formatDate(locale, j.created_at)}</dd>
          <dt className="text-ink-muted">{t.extraction.startedAt}</dt>
          <dd>{formatDate(locale, j.started_at)}</dd>
          <dt className="text-ink-muted">{t.extraction.finishedAt}</dt>
          <dd>{formatDate(locale, j.finished_at)}</dd>
        </dl>
        {j.writes_judgments ? <p className="text-sm text-ink-muted">{t.extraction.writesJudgments}</p> : null}
        {j.error ? <Notice tone="danger">{j.error}</Notice> : null}
        {j.status === "completed_empty" ? (
          <Notice tone="warn" title={t.extraction.emptyJob}>
            <span data-testid="job-empty-reason">
              {foundNothing.length ? fmt(j.mode === "model" ? t.extraction.emptyJobModelFound : t.extraction.emptyJobRules, { fields: foundNothing.map((f) => f.label).join(", ") }) : null}
              {foundNothing.length && needModel.length ? " " : null}
              {needModel.length ? fmt(t.extraction.emptyJobModel, { fields: needModel.map((f) => f.label).join(", ") }) : null}
            </span>
          </Notice>
        ) : needModel.length ? (
          <Notice tone="info">{fmt(t.extraction.needsModelNote, { fields: needModel.map((f) => f.label).join(", ") })}</Notice>
        ) : null}
        {j.cancel_requested && active ? <Notice tone="warn">{t.extraction.cancelRequested}</Notice> : null}
        {retry.isSuccess && active ? <Notice tone="ok">{t.extraction.retried}</Notice> : null}
        {mutationError ? <Notice tone="danger">{errorMessage(mutationError, "")}</Notice> : null}
        <div className="flex flex-wrap gap-2">
          {active ? (
            <Button variant="secondary" size="sm" disabled={j.cancel_requested} onClick={() => setConfirm("cancel")}>
              {t.extraction.cancel}
            </Button>
          ) : null}
          {!active && j.progress.failed > 0 ? (
            <Button size="sm" disabled={retry.isPending} onClick={() => retry.mutate()}>
              {t.extraction.retry}
            </Button>
          ) : null}
          <ExportMenu
            label={t.extraction.export}
            items={(["csv", "xlsx", "jsonl"] as const).map((f) => ({ href: exportHref(id, f), label: fmt(t.extraction.exportAs, { format: f.toUpperCase() }) }))}
          />
          {!active ? (
            <Button variant="danger" size="sm" onClick={() => setConfirm("delete")}>
              {t.extraction.deleteJob}
            </Button>
          ) : null}
        </div>
      </Card>

      {j.progress.failed > 0 ? (
        <section aria-labelledby="failed-h" className="space-y-2">
          <h2 id="failed-h" className="font-semibold">
            {t.extraction.failedRows}
          </h2>
          <ul className="space-y-1 text-sm">
            {(failed.data?.results ?? []).map((r) => (
              <li key={r.document_id}>
                <span className="font-medium">{r.case_number ?? r.document_id}</span>: {r.error}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {fields?.length ? <FieldCounts fields={fields} /> : null}

      <section aria-labelledby="results-h" className="space-y-2">
        <h2 id="results-h" className="font-semibold">
          {t.extraction.results}
        </h2>
        {results.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : results.isError ? (
          <Notice tone="danger">{errorMessage(results.error, "")}</Notice>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm">
              <thead>
                {table.getHeaderGroups().map((hg) => (
                  <tr key={hg.id}>
                    {hg.headers.map((hd) => (
                      <th key={hd.id} scope="col" className="border-b border-line px-2 py-1 align-bottom">
                        <div>{flexRender(hd.column.columnDef.header, hd.getContext())}</div>
                        <Input
                          className="mt-1 h-8 py-1 text-xs"
                          aria-label={fmt(t.extraction.filterField, { name: String(hd.column.columnDef.header) })}
                          value={(hd.column.getFilterValue() as string | undefined) ?? ""}
                          onChange={(e) => hd.column.setFilterValue(e.target.value || undefined)}
                        />
                      </th>
                    ))}
                  </tr>
                ))}
              </thead>
              <tbody>
                {table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className="border-b border-line">
                    {row.getVisibleCells().map((c) => (
                      <td key={c.id} className="px-2 py-1 align-top">
                        {flexRender(c.column.columnDef.cell, c.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {table.getRowModel().rows.length === 0 ? <Notice>{t.extraction.noResults}</Notice> : null}
          </div>
        )}
        {results.data && results.data.total > PAGE_SIZE ? (
          <Pagination page={page} pages={Math.ceil(results.data.total / PAGE_SIZE)} onPage={setPage} label={t.extraction.page} />
        ) : null}
      </section>

      <ConfirmDialog
        open={confirm === "cancel"}
        title={t.extraction.cancel}
        description={t.extraction.cancelConfirm}
        confirmLabel={t.extraction.cancel}
        cancelLabel={t.extraction.keepRunning}
        busy={cancel.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          cancel.mutate();
        }}
      />
      <ConfirmDialog
        open={confirm === "delete"}
        title={t.extraction.deleteJob}
        description={t.extraction.deleteConfirm}
        confirmLabel={t.extraction.deleteJob}
        cancelLabel={t.extraction.keep}
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          remove.mutate();
        }}
      />
    </div>
  );
}
