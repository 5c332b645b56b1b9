/**
 * Client-side export of a collection's judgments as CSV or JSON with a preset of columns (collections).
 * CSV follows RFC 4180 (quotes doubled, CRLF rows) with a BOM so spreadsheet programs read Polish letters right.
 */
import { stripDiacritics } from "@/lib/text/fold";

export const EXPORT_PRESETS = {
  basic: ["id", "case_number", "title", "jurisdiction", "decision_date"],
  citation: ["case_number", "title", "court_name", "decision_date", "source_url"],
  full: ["id", "case_number", "title", "jurisdiction", "court_name", "decision_date", "source_url", "added_at"],
} as const;

export type ExportPreset = keyof typeof EXPORT_PRESETS;
export type ExportFormat = "csv" | "json";
export type ExportRow = Record<string, unknown>;

function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = Array.isArray(v) ? v.join("; ") : typeof v === "object" ? JSON.stringify(v) : String(v);
  // Guard against formula injection when the file is opened in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function pick(rows: ExportRow[], preset: ExportPreset): ExportRow[] {
  const cols = EXPORT_PRESETS[preset];
  return rows.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] ?? null])));
}

export function toCsv(rows: ExportRow[], preset: ExportPreset): string {
  const cols = EXPORT_PRESETS[preset];
  const lines = [cols.join(","), ...rows.map((r) => cols.map((c) => cell(r[c])).join(","))];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

export function toJson(rows: ExportRow[], preset: ExportPreset): string {
  return `${JSON.stringify(pick(rows, preset), null, 2)}\n`;
}

/** A file name safe on every OS. */
export function exportFileName(name: string, format: ExportFormat): string {
  const base = stripDiacritics(name) // ó → o, Ł → L
    .replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "collection";
  return `${base}.${format}`;
}

/** Hand a text file to the browser as a download. */
export function downloadText(content: string, fileName: string, mime: string): void {
  const blob = new Blob([content], { type: mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
