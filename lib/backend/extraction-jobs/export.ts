/**
 * GET /api/extractions/{id}/export?format=csv|xlsx|jsonl: one row per document, one column per
 * field (header names in headerCells), streamed page by page (a 5,000-document job is never held whole). CSV cells that a spreadsheet would read as
 * a formula (starting with = + - @ tab or CR) get a leading apostrophe; XLSX is written by exceljs's streaming writer.
 * A field rules mode could not fill (a confirmed run without a model) reads NEEDS_MODEL in a completed row's cell, and
 * JSONL lines name such fields in `not_extractable`: never a blank that looks like "not stated".
 */
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { DbClient } from "@/lib/supabase/db-client";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { fieldsNeedingModel } from "@/lib/extraction/fillability";
import { getExtractionJob, jobFields, resultsPage, type ResultRow } from "./jobs";

export const NEEDS_MODEL = "(needs a model)";

export type ExportFormat = "csv" | "xlsx" | "jsonl";
const PAGE = 500;
const FIXED = ["document_id", "case_number", "status", "error"] as const;

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

export function csvCell(v: unknown): string {
  const s = guardFormula(cellText(v));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

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

async function* pages(db: DbClient, id: string): AsyncGenerator<ResultRow[]> {
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await resultsPage(db, id, { limit: PAGE, offset });
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
  }
}

export async function exportExtraction(db: DbClient, id: string, format: ExportFormat): Promise<Response> {
  const job = await getExtractionJob(db, id); // 404 before any byte is sent
  const fields = await jobFields(db, job);
  const needsModel = new Set(fieldsNeedingModel(fields, job.schema.key === "base", job.mode).map((f) => f.name));
  const notExtractable = needsModel.size ? { not_extractable: [...needsModel] } : {};
  const name = `extraction-${job.job_id}.${format}`;
  const headers: Record<string, string> = {
    "content-disposition": `attachment; filename="${name}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  const enc = new TextEncoder();
  if (format === "csv" || format === "jsonl") {
    const body = new ReadableStream<Uint8Array>({
      async start(ctrl) {
        try {
          // The BOM makes Excel read UTF-8 (Polish diacritics) correctly.
          if (format === "csv") ctrl.enqueue(enc.encode(`\uFEFF${headerCells(fields).join(",")}\r\n`));
          for await (const rows of pages(db, id)) {
            const text =
              format === "csv"
                ? rows.map((r) => rowCells(r, fields, needsModel).map(csvCell).join(",") + "\r\n").join("")
                : rows
                    .map((r) => JSON.stringify({ document_id: r.document_id, case_number: r.case_number, status: r.status, error: r.error, model: r.model, values: r.values, ...notExtractable }) + "\n")
                    .join("");
            ctrl.enqueue(enc.encode(text));
          }
          ctrl.close();
        } catch (e) {
          ctrl.error(e);
        }
      },
    });
    headers["content-type"] = format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
    return new Response(body, { headers });
  }
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet("results");
  void (async () => {
    try {
      ws.addRow(headerCells(fields)).commit();
      // exceljs writes strings as inline strings (never formulas), so no guard is needed here.
      for await (const rows of pages(db, id)) for (const r of rows) ws.addRow(rowCells(r, fields, needsModel).map(cellText)).commit();
      ws.commit();
      await wb.commit();
    } catch (e) {
      out.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  headers["content-type"] = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  return new Response(Readable.toWeb(out) as ReadableStream<Uint8Array>, { headers });
}
