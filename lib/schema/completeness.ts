/**
 * Completeness constants (spec: Other records, "Completeness constants"). One TypeScript definition here and one SQL
 * twin (supabase/migrations/20260102000100_completeness.sql: completed_statuses(), empty_markers(), is_empty(jsonb),
 * flatten_dotted(jsonb), coverage_ratio(int,int), is_completed_status(text), is_empty_enum_value(text));
 * tests/db/completeness-parity.test.ts proves both answer the same on a table of cases.
 */

/** Extraction-row statuses that count as done (matched case-insensitively after trimming). */
export const COMPLETED_STATUSES = ["completed", "success", "partially_completed"] as const;

/** Strings meaning "no value" (compared lower-cased and trimmed). Note: 0 and false are values, not empty. */
export const EMPTY_MARKERS = [
  "",
  "n/a",
  "na",
  "not available",
  "none",
  "null",
  "unknown",
  "brak",
  "brak danych",
  "nie dotyczy",
  "not applicable",
] as const;

const MARKERS: ReadonlySet<string> = new Set(EMPTY_MARKERS);
const COMPLETED: ReadonlySet<string> = new Set(COMPLETED_STATUSES);

/** ASCII whitespace only, so the SQL twin (btrim with the same set) trims exactly the same characters. */
export function trimAscii(s: string): string {
  return s.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
}

/** True when a row's status counts as completed; a missing, null or empty status never does. */
export function isCompletedStatus(status: string | null | undefined): boolean {
  if (status === null || status === undefined) return false;
  return COMPLETED.has(trimAscii(status).toLowerCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Empty: null/undefined, an empty list, an empty object, or a marker string. 0 and false are not empty. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return MARKERS.has(trimAscii(value).toLowerCase());
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * Typed enum-coded columns (e.g. base_plea_point = 'dont_know') are empty only when null or the empty string: their
 * values are codes, so marker matching does not apply ("unknown" codes are answers).
 */
export function isEmptyEnumValue(value: string | null | undefined): boolean {
  return value === null || value === undefined || value === "";
}

/**
 * Flatten nested objects to dotted keys: {a: {b: 1, c: {}}} → {"a.b": 1, "a.c": {}}. Arrays and scalars are leaves;
 * an empty object stays a leaf so it still counts (as empty) in coverage.
 */
export function flattenDotted(value: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(v) && Object.keys(v).length > 0) Object.assign(out, flattenDotted(v, path));
    else out[path] = v;
  }
  return out;
}

/**
 * covered / total rounded half-up to 4 decimals, or null when total is 0. Integer arithmetic keeps the rounding
 * identical to Postgres round(numeric, 4) (floating-point division would drift on x.xxxx5 ties).
 */
export function coverageRatio(covered: number, total: number): number | null {
  if (!Number.isInteger(covered) || !Number.isInteger(total)) throw new TypeError("coverageRatio takes integers");
  if (total === 0) return null;
  const sign = Math.sign(covered) * Math.sign(total) < 0 ? -1 : 1;
  const num = BigInt(Math.abs(covered)) * 10000n;
  const den = BigInt(Math.abs(total));
  const scaled = (num * 2n + den) / (den * 2n); // round half away from zero, like numeric round
  const ratio = (sign * Number(scaled)) / 10000;
  return ratio === 0 ? 0 : ratio; // never -0
}

/** Share of non-empty leaves of a (flattened) record: {covered, total, ratio}. */
export function recordCoverage(record: Record<string, unknown>): { covered: number; total: number; ratio: number | null } {
  const leaves = Object.values(flattenDotted(record));
  const covered = leaves.filter((v) => !isEmpty(v)).length;
  return { covered, total: leaves.length, ratio: coverageRatio(covered, leaves.length) };
}
