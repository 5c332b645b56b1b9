"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { FieldError, FieldHint, Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { getImportRun, listImportRuns, uploadImportFile, type ImportRejection, type ImportRun, type ImportRunDetail } from "@/lib/client/admin-api";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDateTime, formatNumber, formatPercent, plural, type Locale } from "@/lib/i18n/locale";
import { IMPORT_UPLOAD_SOURCES, type ImportUploadSource } from "@/lib/schema/requests/admin";
import { QueryState } from "./query-state";

const PAGE = 20;
/** How often a run under way is read again (the worker writes its progress about once a second). */
const POLL_MS = 1500;
const runCol = createColumnHelper<ImportRun>();
const rejectionCol = createColumnHelper<ImportRejection>();

const underWay = (r: Pick<ImportRun, "status">) => r.status === "queued" || r.status === "running";
const STATUS_TONE: Record<ImportRun["status"], Tone> = { queued: "neutral", running: "brand", succeeded: "ok", failed: "danger", interrupted: "warn" };

/** 1,048,576 → "1 MB" (binary megabytes, the unit the limit is set in). */
function size(locale: Locale, bytes: number): string {
  return bytes >= 1024 * 1024 ? `${formatNumber(locale, Math.round((bytes / 1024 / 1024) * 10) / 10)} MB` : `${formatNumber(locale, Math.ceil(bytes / 1024))} KB`;
}

const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

/**
 * /admin/imports: an upload form for one file of any importer's source (size-capped, stored by the app and run by the
 * worker), the progress and summary of that upload, and every past run (the command's and uploads) with its counts
 * and rejected records, newest first.
 */
export function ImportsView({ maxBytes }: { maxBytes: number }) {
  const { locale, t } = useI18n();
  const I = t.admin.imports;
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [current, setCurrent] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const runs = useQuery({
    queryKey: ["admin", "imports", page],
    queryFn: () => listImportRuns({ page, limit: PAGE }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(underWay) ? POLL_MS : false),
  });

  const when = (iso: string) => formatDateTime(locale, iso);
  const columns = useMemo(
    () =>
      [
        runCol.accessor("created_at", { header: I.when, cell: (c) => <time dateTime={c.getValue()}>{formatDateTime(locale, c.getValue())}</time> }),
        runCol.accessor("source", { header: I.source, cell: (c) => <code>{c.getValue()}</code> }),
        runCol.accessor("origin", { header: I.origin, cell: (c) => (c.getValue() === "cli" ? I.originCli : I.originUpload) }),
        runCol.accessor((r) => r.inputs.map(baseName).join(", "), { id: "inputs", header: I.inputs, cell: (c) => <span className="break-all">{c.getValue()}</span> }),
        runCol.accessor("status", { header: I.status, cell: (c) => <Badge tone={STATUS_TONE[c.row.original.status]}>{I.statuses[c.row.original.status]}</Badge> }),
        runCol.accessor("read", { header: I.read, cell: (c) => formatNumber(locale, c.getValue()) }),
        runCol.accessor("inserted", { header: I.inserted, cell: (c) => formatNumber(locale, c.getValue()) }),
        runCol.accessor("updated", { header: I.updated, cell: (c) => formatNumber(locale, c.getValue()) }),
        runCol.accessor("skipped", { header: I.skipped, cell: (c) => formatNumber(locale, c.getValue()) }),
        runCol.accessor("rejected", { header: I.rejected, cell: (c) => formatNumber(locale, c.getValue()) }),
        runCol.display({
          id: "details",
          header: I.details,
          cell: (c) => (
            <Button size="sm" variant="secondary" onClick={() => setSelected(c.row.original.id)}>
              {I.details}
              <span className="sr-only"> {formatDateTime(locale, c.row.original.created_at)}</span>
            </Button>
          ),
        }),
      ] as DataTableColumns<ImportRun>,
    [I, locale],
  );

  return (
    <div className="space-y-8">
      <UploadForm
        maxBytes={maxBytes}
        onQueued={(run) => {
          setCurrent(run.id);
          setPage(1);
          void queryClient.invalidateQueries({ queryKey: ["admin", "imports"] });
        }}
      />
      {current ? <RunCard id={current} title={I.currentTitle} testId="import-current" /> : null}
      <Card className="space-y-3 p-5">
        <h2 className="text-lg font-semibold">{I.runsTitle}</h2>
        <QueryState query={runs}>
          {(data) => (
            <DataTable
              data={data.items}
              columns={columns}
              label={I.runsTitle}
              testId="import-runs"
              getRowId={(r) => r.id}
              rowProps={(r) => ({ "data-status": r.status, "data-run-id": r.id })}
              filter={false}
              pagination={{ page: data.page, pages: data.pages, onPage: setPage, label: I.pagination }}
              empty={<p className="text-sm text-muted">{I.empty}</p>}
            />
          )}
        </QueryState>
      </Card>
      {selected ? (
        <RunCard
          id={selected}
          title={fmt(I.detailsOf, { when: when(runs.data?.items.find((r) => r.id === selected)?.created_at ?? new Date().toISOString()) })}
          testId="import-details"
          onClose={() => setSelected(null)}
          withRejections
        />
      ) : null}
    </div>
  );
}

function UploadForm({ maxBytes, onQueued }: { maxBytes: number; onQueued: (run: ImportRun) => void }) {
  const { locale, t } = useI18n();
  const I = t.admin.imports;
  const ids = { source: useId(), sourceHint: useId(), file: useId(), fileHint: useId(), error: useId() };
  const fileRef = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<ImportUploadSource>("auto");
  const [localError, setLocalError] = useState<string | null>(null);
  const limit = size(locale, maxBytes);
  const upload = useMutation({
    mutationFn: ({ file, source: s }: { file: File; source: ImportUploadSource }) => uploadImportFile(file, s),
    onSuccess: (run) => {
      if (fileRef.current) fileRef.current.value = "";
      onQueued(run);
    },
  });

  const serverError = (e: unknown): string => {
    if (e instanceof ApiRequestError && e.code === "BODY_TOO_LARGE") return fmt(I.tooLarge, { size: limit });
    if (e instanceof ApiRequestError && e.code === "IMPORT_SOURCE_UNDETECTED") return I.undetected;
    return fmt(I.uploadError, { message: errorMessage(e, t.common.unknownError) });
  };
  const error = localError ?? (upload.isError ? serverError(upload.error) : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    setLocalError(null);
    upload.reset();
    if (!file) return setLocalError(I.noFile);
    // Checked here too, so a file past the limit is never sent; the server enforces the same limit.
    if (file.size > maxBytes) return setLocalError(fmt(I.tooLarge, { size: limit }));
    upload.mutate({ file, source });
  };

  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold">{I.uploadTitle}</h2>
      <form className="space-y-4" onSubmit={submit} noValidate aria-describedby={error ? ids.error : undefined} data-testid="import-upload">
        <div>
          <Label htmlFor={ids.source}>{I.source}</Label>
          <select
            id={ids.source}
            className={`${controlClass} h-10`}
            value={source}
            aria-describedby={ids.sourceHint}
            onChange={(e) => setSource(e.target.value as ImportUploadSource)}
          >
            {IMPORT_UPLOAD_SOURCES.map((s) => (
              <option key={s} value={s}>
                {I.sources[s]}
              </option>
            ))}
          </select>
          <FieldHint id={ids.sourceHint}>{I.sourceHint}</FieldHint>
        </div>
        {source === "fcl" ? (
          <Notice tone="warn" title={I.fclNoticeTitle}>
            {I.fclNotice}
          </Notice>
        ) : null}
        <div>
          <Label htmlFor={ids.file}>{I.file}</Label>
          <input
            ref={fileRef}
            id={ids.file}
            type="file"
            className="block w-full text-sm text-ink file:mr-3 file:rounded-control file:border file:border-line-strong file:bg-surface file:px-3 file:py-2 focus-visible:outline-2 focus-visible:outline-focus"
            aria-describedby={`${ids.fileHint}${error ? ` ${ids.error}` : ""}`}
            aria-invalid={error ? true : undefined}
            onChange={() => setLocalError(null)}
          />
          <FieldHint id={ids.fileHint}>{fmt(I.fileHint, { size: limit })}</FieldHint>
          <FieldError id={ids.error}>{error}</FieldError>
        </div>
        <Button type="submit" disabled={upload.isPending} aria-busy={upload.isPending || undefined}>
          {upload.isPending ? I.uploading : I.submit}
        </Button>
      </form>
    </Card>
  );
}

/** One run: its progress while under way, then its summary; with `withRejections` its rejected records too. */
function RunCard({ id, title, testId, onClose, withRejections }: { id: string; title: string; testId: string; onClose?: () => void; withRejections?: boolean }) {
  const { locale, t } = useI18n();
  const I = t.admin.imports;
  const run = useQuery({
    queryKey: ["admin", "imports", "run", id],
    queryFn: () => getImportRun(id),
    refetchInterval: (q) => (!q.state.data || underWay(q.state.data) ? POLL_MS : false),
  });
  const rejectionColumns = useMemo(
    () =>
      [
        rejectionCol.accessor((r) => baseName(r.file), { id: "file", header: I.rejectionFile, cell: (c) => <span className="break-all">{c.getValue()}</span> }),
        rejectionCol.accessor(
          (r) =>
            [r.line !== undefined ? fmt(I.line, { n: r.line }) : r.record !== undefined ? fmt(I.record, { n: r.record }) : null, r.at ? fmt(I.at, { at: r.at }) : null]
              .filter(Boolean)
              .join(", ") || "—",
          { id: "where", header: I.rejectionWhere },
        ),
        rejectionCol.accessor((r) => r.id ?? "—", { id: "id", header: I.rejectionId, cell: (c) => <span className="break-all">{c.getValue()}</span> }),
        rejectionCol.accessor("reason", { header: I.rejectionReason, cell: (c) => <span className="break-words">{c.getValue()}</span> }),
      ] as DataTableColumns<ImportRejection>,
    [I],
  );

  return (
    <Card className="space-y-4 p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-4">
        <h2 className="text-lg font-semibold">{title}</h2>
        {onClose ? (
          <Button size="sm" variant="secondary" onClick={onClose}>
            {I.close}
          </Button>
        ) : null}
      </div>
      <QueryState query={run}>
        {(r) => (
          <div className="space-y-4">
            <div aria-live="polite" data-status={r.status}>
              <RunState run={r} />
            </div>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid={`${testId}-counts`}>
              {(["read", "inserted", "updated", "skipped", "rejected", "warnings"] as const).map((k) => (
                <div key={k} className="rounded-card border border-line bg-surface p-3">
                  <dt className="text-sm text-muted">{I[k]}</dt>
                  <dd className="mt-1 text-xl font-semibold tabular-nums" data-count={k}>
                    {formatNumber(locale, r[k])}
                  </dd>
                </div>
              ))}
            </dl>
            {r.notice ? (
              <Notice tone="warn" title={I.fclNoticeTitle}>
                {I.fclNotice}
              </Notice>
            ) : null}
            {withRejections ? (
              <section className="space-y-2">
                <h3 className="font-semibold">{I.rejectionsTitle}</h3>
                <DataTable
                  data={r.rejections}
                  columns={rejectionColumns}
                  label={I.rejectionsTitle}
                  testId={`${testId}-rejections`}
                  pageSize={PAGE}
                  empty={<p className="text-sm text-muted">{I.noRejections}</p>}
                />
              </section>
            ) : null}
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function RunState({ run }: { run: ImportRunDetail }) {
  const { locale, t } = useI18n();
  const I = t.admin.imports;
  if (run.status === "queued") return <p className="text-sm text-muted">{I.queued}</p>;
  if (run.status === "running") {
    const share = run.bytes_total > 0 ? Math.min(1, run.bytes_read / run.bytes_total) : 0;
    return (
      <div className="space-y-2">
        <p className="text-sm">{fmt(I.running, { read: plural(locale, run.read, I.records), percent: formatPercent(locale, share) })}</p>
        <progress className="w-full" max={1} value={share} aria-label={I.status} />
      </div>
    );
  }
  if (run.status === "failed") return <Notice tone="danger">{fmt(I.failedRun, { error: run.error ?? "—" })}</Notice>;
  if (run.status === "interrupted") return <Notice tone="warn">{I.interruptedRun}</Notice>;
  return (
    <div className="space-y-1 text-sm">
      <p>{I.finished}</p>
      <p>
        {I.sync}: <SyncText sync={run.sync} />
      </p>
      {run.licence ? (
        <p className="text-muted">
          {I.licence}: {run.licence}
        </p>
      ) : null}
      <p>
        <Link className="text-brand underline" href="/search">
          {I.searchLink}
        </Link>
      </p>
    </div>
  );
}

function SyncText({ sync }: { sync: unknown }) {
  const { locale, t } = useI18n();
  const I = t.admin.imports;
  if (sync && typeof sync === "object" && "error" in sync) return <>{fmt(I.syncError, { error: String(sync.error) })}</>;
  if (sync && typeof sync === "object" && "documents" in sync && typeof sync.documents === "number") return <>{plural(locale, sync.documents, I.syncDone)}</>;
  return <>{I.syncSkipped}</>;
}
