/**
 * GET /api/extractions/{id}/export?format=csv|xlsx|jsonl&headers=codes|labels: one row per document, one column per
 * field (header names in headerCells), written by the one export module (lib/backend/exports/stream.ts): streamed page
 * by page (a 5,000-document job is never held whole), formula-looking cells neutralised in CSV and XLSX.
 * A field rules mode could not fill (a confirmed run without a model) reads NEEDS_MODEL in a completed row's cell, and
 * JSONL lines name such fields in `not_extractable`: never a blank that looks like "not stated".
 */
import type { DbClient } from "@/lib/supabase/db-client";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { fieldsNeedingModel } from "@/lib/extraction/fillability";
import type { Locale } from "@/lib/i18n/locale";
import { columnLabel } from "@/lib/backend/exports/lists";
import { exportResponse, type ExportColumn, type ExportFormat, type HeaderMode } from "@/lib/backend/exports/stream";
import { getExtractionJob, jobFields, resultsPage, type ResultRow } from "./jobs";

export { cellText, csvCell, guardFormula } from "@/lib/backend/exports/stream";
export type { ExportFormat } from "@/lib/backend/exports/stream";

export const NEEDS_MODEL = "(needs a model)";

const PAGE = 500;
const FIXED = ["document_id", "case_number", "status", "error"] as const;

export function rowCells(row: ResultRow, fields: SchemaField[], needsModel: ReadonlySet<string> = new Set()): unknown[] {
  const value = (f: SchemaField) => (row.status === "completed" && needsModel.has(f.name) ? NEEDS_MODEL : (row.values?.[f.name] ?? null));
  return [row.document_id, row.case_number, row.status, row.error, ...fields.map(value)];
}

/**
 * The header row. A field named like a fixed column (a schema may well have `case_number` or `status`) is written as
 * `field:<name>`: field names are snake_case, so the colon can never meet another field's name, and the fixed columns
 * keep their names for the tools that read them.
 */
export function headerCells(fields: SchemaField[]): string[] {
  const fixed = new Set<string>(FIXED);
  return [...FIXED, ...fields.map((f) => (fixed.has(f.name) ? `field:${f.name}` : f.name))];
}

function columns(fields: SchemaField[], needsModel: ReadonlySet<string>): ExportColumn<ResultRow>[] {
  const codes = headerCells(fields);
  // A job's own fields are named by its schema's author: they keep that name in both modes.
  return codes.map((code, i) => ({ code, label: i < FIXED.length ? columnLabel(code) : undefined, value: (r: ResultRow) => rowCells(r, fields, needsModel)[i] }));
}

async function* pages(db: DbClient, id: string): AsyncGenerator<ResultRow[]> {
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await resultsPage(db, id, { limit: PAGE, offset });
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
  }
}

export async function exportExtraction(db: DbClient, id: string, format: ExportFormat, headers: HeaderMode = "codes", locale: Locale = "en"): Promise<Response> {
  const job = await getExtractionJob(db, id); // 404 before any byte is sent
  const fields = await jobFields(db, job);
  const needsModel = new Set(fieldsNeedingModel(fields, job.schema.key === "base", job.mode).map((f) => f.name));
  const cols = columns(fields, needsModel);
  // JSONL keeps its record shape (values nested under `values`, with the model) for the programs that read it, and
  // names the fields no value could come for.
  if (format === "jsonl") {
    cols.splice(0, cols.length, ...(["document_id", "case_number", "status", "error", "model", "values"] as const).map((k) => ({ code: k, label: columnLabel(k), value: (r: ResultRow) => r[k] })));
    if (needsModel.size) cols.push({ code: "not_extractable", label: undefined, value: () => [...needsModel] });
  }
  return exportResponse({ columns: cols, pages: pages(db, id) }, { format, headers, locale, fileName: `extraction-${job.job_id}`, sheet: "results" });
}
