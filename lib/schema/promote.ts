/**
 * Typed promotion: raw extracted values (LLM output, JSONL rows) → values for the typed base_ columns.
 * Used by ingestion and by extraction jobs. Rules (Deliver 3):
 * - null markers ("", "null", "none", any case, after trimming and unquoting) → null;
 * - strings are trimmed and unquoted ("'x'" → x); `don't_know` → `dont_know`;
 * - a scalar enum outside its set → null; enum arrays keep only allowed values;
 * - integers reject booleans and non-integral floats, accept numeric strings;
 * - booleans accept true/false/yes/no/t/f/1/0;
 * - a lone string becomes a one-element array; null-ish items are dropped; an empty array → null;
 * - dates must be ISO (YYYY-MM-DD, optionally followed by an ISO time, which is dropped);
 * - every one of the 51 columns gets a value (null when absent) so a re-extraction clears stale values.
 * Promotion is total (never throws) and idempotent: promoting promoted values changes nothing.
 */
import { BASE_FIELDS, type FieldDef } from "./fields";
import { SENTENCE_FIELDS } from "./sentence-fields";

/** Every typed column promotion writes: the base fields and the sentence numbers. */
const PROMOTED_FIELDS: readonly FieldDef[] = [...BASE_FIELDS, ...SENTENCE_FIELDS];

export type PromotedValue = string | string[] | number | boolean | null;
/** Column name (base_...) → typed value, for all 51 base fields. */
export type PromotedColumns = Record<string, PromotedValue>;

const NULL_MARKERS = new Set(["", "null", "none"]);
/** Surrounding quote pairs an extractor may leave around a value. */
const QUOTE_PAIRS: readonly [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["`", "`"],
  ["\u201c", "\u201d"], // “ ”
  ["\u201e", "\u201d"], // „ ” (Polish)
  ["\u2018", "\u2019"], // ‘ ’
  ["\u00ab", "\u00bb"], // « »
];

/** Trim and strip surrounding quotes until none are left (so the result is stable under repetition). */
export function cleanString(value: string): string {
  let s = value.trim();
  for (;;) {
    const pair = s.length >= 2 ? QUOTE_PAIRS.find(([open, close]) => s.startsWith(open) && s.endsWith(close)) : undefined;
    if (!pair) return s;
    s = s.slice(pair[0].length, s.length - pair[1].length).trim();
  }
}

/** A cleaned string, or null when the value is a null marker or not a string-like scalar. */
function scalarText(value: unknown): string | null {
  let s: string;
  if (typeof value === "string") s = cleanString(value);
  else if (typeof value === "number") s = Number.isFinite(value) ? String(value) : "";
  else if (typeof value === "boolean") s = String(value);
  else return null;
  return NULL_MARKERS.has(s.toLowerCase()) ? null : s;
}

/**
 * True for values that mean "nothing": null/undefined, a null marker string, or a list holding only such values.
 * Strict callers (JSONL ingestion) use it to tell "empty" from "present but not convertible".
 */
export function isNullish(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return NULL_MARKERS.has(cleanString(value).toLowerCase());
  if (Array.isArray(value)) return value.every(isNullish);
  return false;
}

/** Normalise an enum candidate: lower case, `don't_know` (any apostrophe) → `dont_know`. */
function enumCandidate(value: unknown): string | null {
  const s = scalarText(value);
  if (s === null) return null;
  return s.toLowerCase().replace(/^don['\u2019\u2018`]?t[_ ]know$/, "dont_know");
}

const NUMERIC_STRING = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function toNumber(value: unknown): number | null {
  if (typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  const s = scalarText(value);
  if (s === null || !NUMERIC_STRING.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

function toInteger(value: unknown): number | null {
  const n = toNumber(value);
  if (n === null || !Number.isInteger(n) || n < INT_MIN || n > INT_MAX) return null;
  return n === 0 ? 0 : n; // no -0
}

/** Numbers Postgres numeric accepts; NaN/Infinity were already excluded. */
function toNumeric(value: unknown): number | null {
  const n = toNumber(value);
  return n === null ? null : n === 0 ? 0 : n;
}

const TRUE_WORDS = new Set(["true", "yes", "t", "1"]);
const FALSE_WORDS = new Set(["false", "no", "f", "0"]);

function toBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : null;
  const s = scalarText(value);
  if (s === null) return null;
  const w = s.toLowerCase();
  return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function toIsoDate(value: unknown): string | null {
  const s = scalarText(value);
  if (s === null) return null;
  const m = ISO_DATE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return null;
  const dt = new Date(Date.UTC(y, mo - 1, d));
  // Date.UTC maps years 0-99 to 1900+; those are not plausible judgment dates anyway.
  if (y < 100 || dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** ISO timestamp (a bare ISO date means midnight UTC), normalised to `toISOString()`. */
function toIsoTimestamp(value: unknown): string | null {
  const s = scalarText(value);
  if (s === null || !ISO_DATE.test(s) || toIsoDate(s) === null) return null;
  const t = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s.replace(" ", "T"));
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** A list from a raw value: arrays as they are, a lone scalar as a one-element list. */
function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === null || value === undefined ? [] : [value];
}

function toTextArray(value: unknown, allowed: ReadonlySet<string> | null): string[] | null {
  const out: string[] = [];
  for (const item of asList(value)) {
    const s = allowed ? enumCandidate(item) : scalarText(item);
    if (s === null || (allowed && !allowed.has(s)) || out.includes(s)) continue;
    out.push(s);
  }
  return out.length ? out : null;
}

function toText(value: unknown, allowed: ReadonlySet<string> | null): string | null {
  // A scalar column given a list: one usable item is that item; for free text several are joined.
  if (Array.isArray(value)) {
    const items = value.map((v) => (allowed ? enumCandidate(v) : scalarText(v))).filter((v): v is string => v !== null);
    if (allowed) return items.length === 1 && allowed.has(items[0]) ? items[0] : null;
    // Re-clean the joined text: the join can form a new quoted or marker string, and promotion must be idempotent.
    return items.length ? scalarText(items.join(", ")) : null;
  }
  if (allowed) {
    const s = enumCandidate(value);
    return s !== null && allowed.has(s) ? s : null;
  }
  return scalarText(value);
}

const allowedSets = new Map<string, ReadonlySet<string> | null>(
  PROMOTED_FIELDS.map((f) => [f.name, f.enumValues ? new Set(f.enumValues.map((o) => o.value)) : null]),
);

/** Promote one raw value for one field. Never throws. */
export function promoteValue(field: FieldDef, raw: unknown): PromotedValue {
  const allowed = allowedSets.get(field.name) ?? (field.enumValues ? new Set(field.enumValues.map((o) => o.value)) : null);
  switch (field.type) {
    case "text[]":
      return toTextArray(raw, allowed);
    case "text":
      return toText(raw, allowed);
    case "integer":
      return toInteger(raw);
    case "numeric":
      return toNumeric(raw);
    case "boolean":
      return toBoolean(raw);
    case "date":
      return toIsoDate(raw);
    case "timestamptz":
      return toIsoTimestamp(raw);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Promote a raw extraction object (keys are field names, e.g. `offender_gender`; `base_`-prefixed column names are
 * accepted too) to a value for each of the 51 base columns and the 15 sentence-number columns. Unknown keys are ignored; a non-object yields all nulls.
 */
export function promoteExtraction(raw: unknown): PromotedColumns {
  const src = isRecord(raw) ? raw : {};
  const out: PromotedColumns = {};
  for (const field of PROMOTED_FIELDS) {
    const value = Object.prototype.hasOwnProperty.call(src, field.name) ? src[field.name] : src[field.column];
    out[field.column] = promoteValue(field, value);
  }
  return out;
}

/** Promoted columns keyed back by field name (the shape an extraction object has), e.g. to re-promote or display. */
export function columnsToFieldValues(columns: PromotedColumns): Record<string, PromotedValue> {
  const out: Record<string, PromotedValue> = {};
  for (const field of PROMOTED_FIELDS) out[field.name] = columns[field.column] ?? null;
  return out;
}
