/**
 * Streams an export (lib/backend/exports) with fetch, reporting bytes and rows as they arrive, cancellable through
 * the signal, then hands the file to the browser. Rows are counted as line ends for CSV and JSONL (the server sends
 * one row per line; a quoted line break inside a CSV cell is rare enough to leave the count approximate) and are
 * unknown for XLSX, a zip.
 */
import { errorFromBody } from "./api";
import { downloadBlob } from "./download";

export type ExportFileFormat = "csv" | "xlsx" | "jsonl";

/** An export read with GET (its parameters in the URL) or, when the list's request is a JSON body, with POST. */
export type ExportTarget = string | { url: string; json: unknown };

export interface ExportProgress {
  bytes: number;
  /** Rows received so far (CSV, JSONL); null for XLSX. */
  rows: number | null;
  /** Rows the file will hold, when the server said (X-Export-Rows). */
  total: number | null;
}

/** The file name of a Content-Disposition header, or the fallback. */
export function dispositionName(header: string | null, fallback: string): string {
  const m = header ? /filename="([^"]+)"/.exec(header) : null;
  return m?.[1] ?? fallback;
}

/** Line ends in a chunk. */
function newlines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
  return n;
}

/** Fetch the export and save it; resolves to the saved file's name. Throws ApiRequestError for an error answer. */
export async function streamExport(target: ExportTarget, format: ExportFileFormat, onProgress: (p: ExportProgress) => void, signal: AbortSignal): Promise<{ file: string; progress: ExportProgress }> {
  const res =
    typeof target === "string"
      ? await fetch(target, { signal, credentials: "same-origin" })
      : // A write is JSON (the web tier's CSRF defence refuses any other body).
        await fetch(target.url, { method: "POST", body: JSON.stringify(target.json), headers: { "content-type": "application/json" }, signal, credentials: "same-origin" });
  if (!res.ok || !res.body) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // not JSON: the status alone
    }
    throw errorFromBody(res.status, body);
  }
  const total = Number(res.headers.get("x-export-rows"));
  const progress: ExportProgress = { bytes: 0, rows: format === "xlsx" ? null : 0, total: Number.isFinite(total) && res.headers.has("x-export-rows") ? total : null };
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    progress.bytes += value.length;
    if (format !== "xlsx") {
      lines += newlines(value);
      // The CSV's first line is its header.
      progress.rows = format === "csv" ? Math.max(0, lines - 1) : lines;
    }
    onProgress({ ...progress });
  }
  const file = dispositionName(res.headers.get("content-disposition"), `export.${format}`);
  downloadBlob(new Blob(chunks, { type: res.headers.get("content-type") ?? "application/octet-stream" }), file);
  return { file, progress };
}
