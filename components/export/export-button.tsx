"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/client/api";
import { streamExport, type ExportFileFormat, type ExportProgress, type ExportTarget } from "@/lib/client/export-stream";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, plural } from "@/lib/i18n/locale";

const FORMATS: readonly ExportFileFormat[] = ["csv", "xlsx", "jsonl"];

function size(bytes: number, locale: "en" | "pl"): string {
  if (bytes < 1024) return `${formatNumber(locale, bytes)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(locale, Math.round(bytes / 1024))} KB`;
  return `${formatNumber(locale, Number((bytes / 1024 / 1024).toFixed(1)))} MB`;
}

export interface ExportButtonProps {
  /** The export URL for a format and header mode (the list's own parameters already in it), or a URL and its JSON body. */
  href: (format: ExportFileFormat, headers: "labels" | "codes") => ExportTarget;
  /** What is exported, as a noun for "Export {what}". */
  what: string;
  hint?: string;
  disabled?: boolean;
  /** Called after a file was saved (analytics). */
  onDone?: (format: ExportFileFormat, rows: number | null) => void;
  testId?: string;
}

/**
 * Export any list: pick a format and header mode, then the file streams in with bytes and rows received shown (and a
 * bar when the server says how many rows to expect), cancellable until it is saved.
 */
export function ExportButton({ href, what, hint, disabled, onDone, testId = "export" }: ExportButtonProps) {
  const { locale, t } = useI18n();
  const T = t.exports;
  const [format, setFormat] = useState<ExportFileFormat>("csv");
  const [headers, setHeaders] = useState<"labels" | "codes">("labels");
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "danger" | "info"; text: string } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const busy = progress !== null;

  async function run() {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setMessage(null);
    setProgress({ bytes: 0, rows: null, total: null });
    try {
      const { file, progress: last } = await streamExport(href(format, headers), format, setProgress, ctrl.signal);
      setMessage({ tone: "ok", text: fmt(T.done, { file }) });
      onDone?.(format, last.rows);
    } catch (err) {
      if (ctrl.signal.aborted) setMessage({ tone: "info", text: T.cancelled });
      else setMessage({ tone: "danger", text: fmt(T.failed, { message: errorMessage(err, t.common.unknownError) }) });
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  const rowsText =
    progress?.rows == null
      ? null
      : progress.total !== null
        ? plural(locale, progress.rows, T.rows, { total: formatNumber(locale, progress.total) })
        : plural(locale, progress.rows, T.rowsOpen);

  return (
    <details className="group rounded-card border border-line bg-surface text-sm" data-testid={testId}>
      <summary className="cursor-pointer list-none px-3 py-2 font-medium">{fmt(T.exportWhat, { what })}</summary>
      <div className="flex flex-wrap items-end gap-2 border-t border-line p-3">
        <label className="text-xs font-medium">
          <span className="mb-1 block">{T.format}</span>
          <select className={cx(controlClass, "h-9 w-28")} value={format} onChange={(e) => setFormat(e.target.value as ExportFileFormat)} disabled={busy} data-testid={`${testId}-format`}>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-medium">
          <span className="mb-1 block">{T.headers}</span>
          <select className={cx(controlClass, "h-9 w-32")} value={headers} onChange={(e) => setHeaders(e.target.value as "labels" | "codes")} disabled={busy} data-testid={`${testId}-headers`}>
            <option value="labels">{T.labels}</option>
            <option value="codes">{T.codes}</option>
          </select>
        </label>
        {busy ? (
          <Button size="sm" variant="secondary" className="h-9" onClick={() => abort.current?.abort()} data-testid={`${testId}-cancel`}>
            {T.cancel}
          </Button>
        ) : (
          <Button size="sm" className="h-9" onClick={() => void run()} disabled={disabled} data-testid={`${testId}-download`}>
            {T.download}
          </Button>
        )}
        <p className="basis-full text-xs text-muted">
          {T.headersHint}
          {hint ? ` ${hint}` : ""}
        </p>
        <div className="basis-full" aria-live="polite" data-testid={`${testId}-progress`}>
          {progress ? (
            <div className="space-y-1">
              {progress.total ? <progress className="h-2 w-full" max={progress.total} value={progress.rows ?? undefined} /> : null}
              <p className="text-xs text-muted">
                {progress.bytes === 0 ? T.preparing : [fmt(T.bytes, { size: size(progress.bytes, locale) }), rowsText].filter(Boolean).join(" · ")}
              </p>
            </div>
          ) : null}
          {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
        </div>
      </div>
    </details>
  );
}
