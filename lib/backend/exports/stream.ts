/**
 * The one export writer every list uses (search results, extraction rows, collection members, aggregates, extraction
 * jobs): a list of columns and an async source of row pages become a streamed CSV, XLSX or JSONL download. Pages are
 * pulled one at a time as the client reads, so a long list is never held whole.
 *
 * Headers: `codes` writes column codes and stored values as they are; `labels` writes the registry's EN or PL labels
 * for the headers, and for enum values and yes/no cells.
 * Spreadsheet safety (OWASP CSV injection): a text cell starting with = + - @ tab or CR gets a leading apostrophe, in
 * CSV and in XLSX (a file saved back to CSV from a spreadsheet would otherwise carry the formula). Numbers stay numbers:
 * a negative number is not a formula. JSONL is data for programs and is written unchanged.
 */
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Bilingual, EnumOption } from "@/lib/schema/fields";
import type { Locale } from "@/lib/i18n/locale";

export const EXPORT_FORMATS = ["csv", "xlsx", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const HEADER_MODES = ["labels", "codes"] as const;
export type HeaderMode = (typeof HEADER_MODES)[number];

export interface ExportColumn<R> {
  /** Stable machine name: the header in `codes` mode and the JSONL key. */
  code: string;
  /** Header in `labels` mode; a column without one (a user's own schema field) keeps its code. */
  label?: Bilingual;
  value: (row: R) => unknown;
  /** Labels of the column's coded values (enum fields), used in `labels` mode. */
  options?: readonly EnumOption[];
  /** The cell in `labels` mode when its label depends on the row (an aggregate's value, labelled by the row's field). */
  labelled?: (row: R, locale: Locale) => unknown;
}

export interface ExportSource<R> {
  columns: readonly ExportColumn<R>[];
  /** Pages of rows; read lazily, one page per pull. */
  pages: AsyncIterable<R[]>;
  /** How many rows the file will hold, when known before the first byte (sent as X-Export-Rows for progress bars). */
  expectedRows?: number;
}

export interface ExportOptions {
  format: ExportFormat;
  headers: HeaderMode;
  locale: Locale;
  /** File name without its extension; sanitised here. */
  fileName: string;
  /** Worksheet name (XLSX). */
  sheet?: string;
}

const YES_NO: Record<Locale, [string, string]> = { en: ["Yes", "No"], pl: ["Tak", "Nie"] };

/** A cell's text: lists joined with "; ", objects as JSON, null as empty. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join("; ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** OWASP's CSV-injection guard: a leading = + - @ tab or CR would make a spreadsheet evaluate the cell. */
export function guardFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** A CSV field: numbers as written, everything else guarded, then quoted when it holds a quote, comma or line break. */
export function csvCell(v: unknown): string {
  const s = typeof v === "number" ? String(v) : guardFormula(cellText(v));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** An XLSX cell: numbers stay numbers, every other value guarded text (exceljs writes strings as text, never formulas). */
export function xlsxCell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  return guardFormula(cellText(v));
}

/** A column's header in the chosen mode. */
export function headerOf<R>(col: ExportColumn<R>, mode: HeaderMode, locale: Locale): string {
  return mode === "labels" && col.label ? col.label[locale] : col.code;
}

/** A row's values in the chosen mode: in `labels` mode enum codes become their labels and booleans Yes/No. */
export function valuesOf<R>(row: R, columns: readonly ExportColumn<R>[], mode: HeaderMode, locale: Locale): unknown[] {
  return columns.map((c) => {
    const v = c.value(row);
    if (mode === "codes") return v ?? null;
    if (c.labelled) return c.labelled(row, locale) ?? null;
    if (typeof v === "boolean") return YES_NO[locale][v ? 0 : 1];
    if (!c.options) return v ?? null;
    const label = (x: unknown) => (typeof x === "string" ? (c.options?.find((o) => o.value === x)?.[locale] ?? x) : x);
    return Array.isArray(v) ? v.map(label) : label(v);
  });
}

/** A file name safe on every OS and in a Content-Disposition header. */
export function safeFileName(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[łŁ]/g, (c) => (c === "ł" ? "l" : "L"))
    .replace(/[^\w.-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return base || "export";
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The pages of a list read whole (an aggregate, a capped list): one page, or none when empty. */
export async function* onePage<R>(rows: R[]): AsyncGenerator<R[]> {
  if (rows.length) yield rows;
}

/** A page iterator whose first page was already read (so a 404 or a bad filter answers before any byte is sent). */
export async function* withFirst<R>(first: R[], rest: () => AsyncIterable<R[]>): AsyncGenerator<R[]> {
  if (first.length) yield first;
  yield* rest();
}

/** The streamed download. */
export function exportResponse<R>(source: ExportSource<R>, opts: ExportOptions): Response {
  const { format, headers: mode, locale } = opts;
  const headers: Record<string, string> = {
    "content-type": CONTENT_TYPES[format],
    "content-disposition": `attachment; filename="${safeFileName(opts.fileName)}.${format}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-export-headers": mode,
  };
  if (source.expectedRows !== undefined) headers["x-export-rows"] = String(source.expectedRows);
  const header = source.columns.map((c) => headerOf(c, mode, locale));
  const body = format === "xlsx" ? xlsxBody(source, header, opts) : textBody(source, header, opts);
  return new Response(body, { headers });
}

function textBody<R>(source: ExportSource<R>, header: string[], opts: ExportOptions): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = source.pages[Symbol.asyncIterator]();
  const line = (row: R): string => {
    const values = valuesOf(row, source.columns, opts.headers, opts.locale);
    if (opts.format === "csv") return `${values.map(csvCell).join(",")}\r\n`;
    return `${JSON.stringify(Object.fromEntries(header.map((h, i) => [h, values[i] ?? null])))}\n`;
  };
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      // The BOM makes Excel read UTF-8 (Polish diacritics) correctly.
      if (opts.format === "csv") ctrl.enqueue(enc.encode(`\uFEFF${header.map(csvCell).join(",")}\r\n`));
    },
    async pull(ctrl) {
      const next = await it.next();
      if (next.done) return ctrl.close();
      ctrl.enqueue(enc.encode(next.value.map(line).join("")));
    },
    async cancel() {
      await it.return?.();
    },
  });
}

function xlsxBody<R>(source: ExportSource<R>, header: string[], opts: ExportOptions): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  // Shared strings would keep every distinct string in memory until the end; inline strings stream.
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet((opts.sheet ?? "export").slice(0, 31));
  let cancelled = false;
  out.on("close", () => {
    cancelled = true;
  });
  void (async () => {
    try {
      ws.addRow(header.map(xlsxCell)).commit();
      for await (const rows of source.pages) {
        if (cancelled) return;
        for (const r of rows) ws.addRow(valuesOf(r, source.columns, opts.headers, opts.locale).map(xlsxCell)).commit();
        // Wait for the reader when the zip stream is ahead of it, so a slow download does not buffer the whole file.
        if (out.writableNeedDrain) await new Promise<void>((res) => out.once("drain", res).once("close", res));
      }
      ws.commit();
      await wb.commit();
    } catch (e) {
      out.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
