/**
 * JSONL ingestion of judgments (one JSON object per line; shape in docs/ingestion.md). Every line is validated with
 * zod, extracted base values are promoted to the typed base_ columns (lib/schema/promote.ts), and the row is upserted
 * by source_id (or id) in one statement, so each row lands whole or not at all. Bad lines are reported with their
 * line number and reason and never stop the run.
 */
import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import pg from "pg";
import { z } from "zod";
import { extractRulesSentenceNumbers } from "@/lib/extraction/rules";
import { BASE_FIELDS, type FieldDef } from "@/lib/schema/fields";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import { isNullish, promoteExtraction, promoteValue } from "@/lib/schema/promote";
import { httpUrlSchema } from "@/lib/schema/text";

const isoDate = z.iso.date();
const shortText = z.string().max(2_000);

/** Extracted values by field name; each must be empty or convertible to its column (strict, unlike LLM promotion). */
const extractionData = z.record(z.string(), z.unknown()).superRefine((data, ctx) => {
  const known = new Map([...BASE_FIELDS, ...SENTENCE_FIELDS].map((f) => [f.name, f]));
  for (const [key, value] of Object.entries(data)) {
    const field = known.get(key) ?? known.get(key.replace(/^base_/, ""));
    if (!field) {
      ctx.addIssue({ code: "custom", path: [key], message: `unknown base field "${key}"` });
      continue;
    }
    const problem = strictProblem(field, value);
    if (problem) ctx.addIssue({ code: "custom", path: [key], message: problem });
  }
});

/** Why a present value cannot be stored in the field's column, or null when it can (or is empty). */
function strictProblem(field: FieldDef, value: unknown): string | null {
  if (isNullish(value)) return null;
  const allowed = field.enumValues ? ` (allowed: ${field.enumValues.map((o) => o.value).join(", ")})` : "";
  if (field.type === "text[]") {
    const items = Array.isArray(value) ? value : [value];
    const bad = items.find((item) => !isNullish(item) && promoteValue(field, item) === null);
    return bad === undefined ? null : `${JSON.stringify(bad)} is not a valid ${field.enumValues ? "value" : "text item"}${allowed}`;
  }
  return promoteValue(field, value) === null ? `${JSON.stringify(value)} is not a valid ${field.enumValues ? "value" : field.type}${allowed}` : null;
}

export const ingestRowSchema = z
  .strictObject({
    id: z.uuid().optional(),
    source_id: z.string().trim().min(1).max(500).optional(),
    full_text: z.string().trim().min(1, "full_text is required and must not be empty"),
    jurisdiction: z.enum(["PL", "UK"]),
    case_number: shortText.nullish(),
    title: z.string().max(20_000).nullish(),
    summary: z.string().max(200_000).nullish(),
    court_name: shortText.nullish(),
    judges: z.array(z.strictObject({ name: z.string().trim().min(1).max(500), role: z.string().max(500).nullish() })).max(50).nullish(),
    keywords: z.array(shortText).max(500).nullish(),
    legal_topics: z.array(shortText).max(500).nullish(),
    cited_legislation: z.array(shortText).max(2_000).nullish(),
    court_level: shortText.nullish(),
    case_type: shortText.nullish(),
    decision_type: shortText.nullish(),
    outcome: shortText.nullish(),
    decision_date: isoDate.nullish(),
    publication_date: isoDate.nullish(),
    // Shown as a link on the public document page: http(s) only (javascript: and data: parse as URLs too).
    source_url: httpUrlSchema.max(2_000).nullish(),
    metadata: z.strictObject({ language: z.string().max(20).optional(), page_count: z.number().int().min(0).optional() }).nullish(),
    structure_extraction_status: shortText.nullish(),
    deep_analysis_status: shortText.nullish(),
    extraction: z
      .strictObject({
        status: z.enum(["pending", "completed", "failed"]).optional(),
        model: shortText.nullish(),
        extracted_at: z.iso.datetime({ offset: true }).nullish(),
        error: z.string().max(10_000).nullish(),
        schema_key: shortText.nullish(),
        schema_version: shortText.nullish(),
        data: extractionData.optional(),
      })
      .optional(),
  })
  .refine((r) => r.id !== undefined || r.source_id !== undefined, { message: "either source_id or id is required", path: ["source_id"] });

export type IngestRow = z.infer<typeof ingestRowSchema>;

export interface Rejection {
  line: number;
  reason: string;
}

export interface IngestReport {
  inserted: number;
  updated: number;
  rejected: Rejection[];
  lines: number;
  ms: number;
}

export interface IngestOptions {
  /** Called after each line with lines done and bytes read so far (of `totalBytes`). */
  onProgress?: (progress: { lines: number; bytes: number; totalBytes: number }) => void;
}

const JSON_COLUMNS = new Set(["judges", "metadata", "base_raw_extraction"]);

/** Column → value for one validated row. Base columns are written only when the row carries extraction data. */
function toColumns(row: IngestRow): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  const { extraction, ...core } = row;
  for (const [k, v] of Object.entries(core)) if (v !== undefined) cols[k] = v ?? null;
  if (extraction) {
    if (extraction.data) {
      // Every typed column gets a value, so a re-ingested extraction clears stale ones. The sentence numbers are
      // rules-v1's reading of the text unless the line states them.
      Object.assign(cols, promoteExtraction({ ...extractRulesSentenceNumbers(row.full_text).values, ...extraction.data }));
      cols.base_raw_extraction = extraction.data;
    }
    cols.base_extraction_status = extraction.status ?? (extraction.data ? "completed" : "pending");
    if (extraction.model !== undefined) cols.base_extraction_model = extraction.model;
    if (extraction.extracted_at !== undefined) cols.base_extracted_at = extraction.extracted_at;
    else if (extraction.data) cols.base_extracted_at = new Date().toISOString();
    if (extraction.error !== undefined) cols.base_extraction_error = extraction.error;
    if (extraction.schema_key != null) cols.base_schema_key = extraction.schema_key;
    if (extraction.schema_version != null) cols.base_schema_version = extraction.schema_version;
  }
  return cols;
}

/** One upsert statement: atomic on its own, so a row is written whole or not at all. */
export async function upsert(client: pg.Client, row: IngestRow): Promise<"inserted" | "updated"> {
  const cols = toColumns(row);
  const names = Object.keys(cols);
  const values = names.map((n) => (JSON_COLUMNS.has(n) && cols[n] !== null ? JSON.stringify(cols[n]) : cols[n]));
  const placeholders = names.map((n, i) => `$${i + 1}${JSON_COLUMNS.has(n) ? "::jsonb" : ""}`);
  const key = row.source_id !== undefined ? "source_id" : "id";
  // JSONL rows are source 'jsonl' (the column default); (source, source_id) is the unique key.
  const target = key === "source_id" ? "source, source_id" : "id";
  const updates = names.filter((n) => n !== key).map((n) => `${n} = excluded.${n}`);
  const sql =
    `insert into public.judgments (${names.join(", ")}) values (${placeholders.join(", ")}) ` +
    `on conflict (${target}) do ${updates.length ? `update set ${updates.join(", ")}` : "nothing"} ` +
    "returning (xmax = 0) as inserted";
  const { rows } = await client.query<{ inserted: boolean }>(sql, values);
  return rows[0]?.inserted === false ? "updated" : "inserted";
}

function zodReason(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "row"}: ${i.message}`).join("; ");
}

/** Ingest a JSONL file into `databaseUrl`. Never throws for a bad line; throws only when the file or database is unusable. */
export async function ingestFile(databaseUrl: string, file: string, opts: IngestOptions = {}): Promise<IngestReport> {
  const started = Date.now();
  const totalBytes = statSync(file).size;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const report: IngestReport = { inserted: 0, updated: 0, rejected: [], lines: 0, ms: 0 };
  let bytes = 0;
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
    for await (const text of lines) {
      report.lines++;
      bytes += Buffer.byteLength(text, "utf8") + 1;
      const line = report.lines;
      if (text.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        report.rejected.push({ line, reason: `malformed JSON: ${(e as Error).message}` });
        opts.onProgress?.({ lines: line, bytes, totalBytes });
        continue;
      }
      const result = ingestRowSchema.safeParse(parsed);
      if (!result.success) {
        report.rejected.push({ line, reason: zodReason(result.error) });
      } else {
        try {
          report[await upsert(client, result.data)]++;
        } catch (e) {
          const err = e as { message: string; constraint?: string };
          report.rejected.push({ line, reason: `database rejected the row: ${err.constraint ? `${err.constraint}: ` : ""}${err.message}` });
        }
      }
      opts.onProgress?.({ lines: line, bytes: Math.min(bytes, totalBytes), totalBytes });
    }
  } finally {
    await client.end();
  }
  report.ms = Date.now() - started;
  return report;
}
