/**
 * Judgment row → index document (spec: Judgment, database row and search-index document; Extracted base-schema
 * fields: "Numeric values are emitted as int or float (never a decimal string), text arrays as lists, booleans as
 * booleans, dates as ISO string plus epoch-second twin"). Null values: explicit null for filterable attributes (so
 * IS NULL works), omitted otherwise (see IndexDocument in types.ts).
 * Never indexed: base_schema_key, base_schema_version, base_extraction_error, base_raw_extraction, base_search_tsv.
 */
import {
  BASE_INDEX_FIELDS,
  CORE_FIELDS,
  FILTERABLE_ATTRIBUTES,
  TS_SUFFIX,
  type IndexFieldKind,
} from "./index-settings";
import type { IndexDocument, IndexValue, JudgeEntry } from "./types";

/** A judgments row as read by `pg` (dates may arrive as Date or string, numerics as string). */
export type JudgmentRow = Record<string, unknown>;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})/;

/** ISO date (YYYY-MM-DD) of a date column value; pg parses `date` as local midnight, so use local parts. */
export function isoDate(value: unknown): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const p = (n: number) => String(n).padStart(2, "0");
    return `${value.getFullYear()}-${p(value.getMonth() + 1)}-${p(value.getDate())}`;
  }
  if (typeof value === "string") {
    const m = DATE_RE.exec(value);
    return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
  }
  return undefined;
}

/** Epoch seconds of an ISO date at 00:00 UTC. */
export function dateToEpochSeconds(iso: string): number {
  const m = DATE_RE.exec(iso);
  if (!m) throw new Error(`not an ISO date: ${iso}`);
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000);
}

function isoTimestamp(value: unknown): string | undefined {
  const d = value instanceof Date ? value : typeof value === "string" ? new Date(value) : undefined;
  if (!d || Number.isNaN(d.getTime())) return undefined;
  return d.toISOString();
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function toStringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === "string");
}

function toJudges(value: unknown): JudgeEntry[] | undefined {
  const parsed: unknown = typeof value === "string" ? safeJson(value) : value;
  if (!Array.isArray(parsed)) return undefined;
  const out: JudgeEntry[] = [];
  for (const j of parsed) {
    if (typeof j === "string") out.push({ name: j });
    else if (j && typeof j === "object" && typeof (j as { name?: unknown }).name === "string") {
      const role = (j as { role?: unknown }).role;
      out.push(typeof role === "string" ? { name: (j as { name: string }).name, role } : { name: (j as { name: string }).name });
    }
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Normalise one value by its index kind; undefined = omit the key. */
function normalise(kind: IndexFieldKind, value: unknown): IndexValue | undefined {
  if (value === null || value === undefined) return undefined;
  switch (kind) {
    case "text":
      return typeof value === "string" ? value : String(value);
    case "text[]":
      // Some registry "text" controls are tag arrays in the DB and vice versa; accept both shapes.
      return Array.isArray(value) ? toStringArray(value) : [String(value)];
    case "boolean":
      return typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : undefined;
    case "integer":
    case "number":
      return toNumber(value);
    case "date":
      return isoDate(value);
    case "timestamp":
      return isoTimestamp(value);
    case "judges":
      return toJudges(value);
  }
}

const FILTERABLE = new Set(FILTERABLE_ATTRIBUTES);

const DATE_TWIN_NAMES = new Set(
  BASE_INDEX_FIELDS.filter(([, k]) => k === "timestamp").map(([c]) => c),
);

/**
 * Build the index document of one judgments row. Unknown columns are ignored; `judges_flat` is derived from
 * `judges` when the row has no such column.
 */
export function toIndexDocument(row: JudgmentRow): IndexDocument {
  const id = row.id;
  if (typeof id !== "string" || id === "") throw new Error("judgment row without id");
  const doc: IndexDocument = { id };
  const put = (name: string, kind: IndexFieldKind, raw: unknown) => {
    const v = normalise(kind, raw);
    const twin = kind === "date" || (kind === "timestamp" && DATE_TWIN_NAMES.has(name)) ? name + TS_SUFFIX : null;
    if (v === undefined) {
      // Explicit null for filterable attributes so IS NULL can match (see IndexDocument in types.ts).
      if (FILTERABLE.has(name)) doc[name] = null;
      if (twin && FILTERABLE.has(twin)) doc[twin] = null;
      return;
    }
    doc[name] = v;
    if (twin && typeof v === "string") {
      doc[twin] = kind === "date" ? dateToEpochSeconds(v) : Math.floor(Date.parse(v) / 1000);
    }
  };
  for (const f of CORE_FIELDS) {
    if (f.name === "id") continue;
    if (f.name === "judges_flat") continue;
    // Only decision_date has a twin among core dates (publication_date is displayed only).
    if (f.kind === "date" && f.name !== "decision_date") {
      const v = isoDate(row[f.name]);
      if (v !== undefined) doc[f.name] = v;
      continue;
    }
    put(f.name, f.kind, row[f.name]);
  }
  const flat = row.judges_flat;
  if (typeof flat === "string") doc.judges_flat = flat;
  else if (Array.isArray(doc.judges) && doc.judges.length > 0) {
    doc.judges_flat = (doc.judges as JudgeEntry[]).map((j) => j.name).join(", ");
  }
  for (const [column, kind] of BASE_INDEX_FIELDS) put(column, kind, row[column]);
  return doc;
}

/** Columns sync selects from `judgments` (core + base); judges_flat is derived. */
export const JUDGMENT_COLUMNS: readonly string[] = [
  ...CORE_FIELDS.filter((f) => f.name !== "judges_flat").map((f) => f.name),
  ...BASE_INDEX_FIELDS.map(([c]) => c),
];

/**
 * Text embedded for a document vector: the high-weight fields plus the start of the full text (kept short so a
 * lexical embedder is not dominated by boilerplate and a model stays within its input limit).
 */
/** The fields of embeddingText's head, in order. */
export const EMBEDDING_TEXT_FIELDS: readonly string[] = ["title", "base_case_name", "summary", "keywords", "legal_topics"];

export function embeddingText(doc: IndexDocument, fullText?: string, maxChars = 2000): string {
  const parts: string[] = [];
  for (const k of EMBEDDING_TEXT_FIELDS) {
    const v = doc[k];
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) parts.push((v as unknown[]).filter((x) => typeof x === "string").join(", "));
  }
  const ft = fullText ?? (typeof doc.full_text === "string" ? doc.full_text : "");
  const head = parts.join(". ");
  return (head + (ft ? ". " + ft.slice(0, Math.max(0, maxChars - head.length)) : "")).slice(0, maxChars);
}
