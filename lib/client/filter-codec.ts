/**
 * The `f` URL parameter of /search/extractions (spec: Web page URL state): base64url-encoded JSON of the filter.
 * In the page, date ranges are held as epoch-second `{min,max}`; the filter sent to the API carries ISO `{from,to}`
 * dates (D-08: numbers on date keys are refused by the server). A malformed `f` decodes to an empty filter and a flag
 * the page turns into a notice — never a crash, and never a silently widened cohort (D-06).
 */
import { CORE_FILTER_KEYS, rpcFilterFields, type Control, type FieldDef } from "@/lib/schema";
import type { BaseSchemaFilters, BaseSchemaFilterValue } from "@/lib/schema/filter-types";

export type FilterControl = Exclude<Control, "none">;

export interface NumRange {
  min?: number;
  max?: number;
}

/** A filter value as the page holds it. */
export type PageFilterValue = string[] | boolean | NumRange | string;
export type PageFilter = Record<string, PageFilterValue>;

/**
 * A filter as the API takes it: the same type the server's one parser (lib/schema/filters.ts) produces, so the page
 * cannot build a value shape the server does not accept.
 */
export type ApiFilterValue = BaseSchemaFilterValue;
export type ApiFilter = BaseSchemaFilters;

export interface FilterKeyInfo {
  key: string;
  control: FilterControl;
  /** Allowed values when the set is fixed, else null (values come from facets). */
  enumValues: readonly string[] | null;
  /** The registry entry for base fields; null for the core keys. */
  field: FieldDef | null;
  /** Each value of the list must match it (`cites`: provision or judgment ids), else null. */
  valuePattern: RegExp | null;
}

/**
 * Keys the structured filter accepts: the core keys (jurisdiction, decision_date, court_name; collection_ids is refused
 * by the filter and aggregate endpoints, D-10) and every base field the Postgres functions take (registry `rpcFilter`).
 */
function buildKeyTable(): Map<string, FilterKeyInfo> {
  const table = new Map<string, FilterKeyInfo>();
  for (const k of CORE_FILTER_KEYS) {
    if (k.control === "uuid_membership") continue;
    table.set(k.key, { key: k.key, control: k.control, enumValues: k.enumValues, field: null, valuePattern: k.valuePattern ? new RegExp(k.valuePattern, "u") : null });
  }
  for (const f of rpcFilterFields()) {
    if (f.control === "none" || table.has(f.name)) continue;
    table.set(f.name, {
      key: f.name,
      control: f.control,
      enumValues: f.enumValues ? f.enumValues.map((o) => o.value) : null,
      field: f,
      valuePattern: null,
    });
  }
  return table;
}

let keyTable: Map<string, FilterKeyInfo> | null = null;
export function filterKeys(): Map<string, FilterKeyInfo> {
  keyTable ??= buildKeyTable();
  return keyTable;
}

// ---------- base64url ----------

export function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Throws on anything that is not base64url of valid UTF-8. */
export function base64UrlDecode(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error("not base64url");
  const b64 = encoded.replace(/-/g, "+").replace(/_/g, "/");
  const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
  const bin = atob(padded);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// ---------- dates ----------

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD (UTC calendar date) → epoch seconds at 00:00 UTC; null when not a real date. */
export function isoDateToEpoch(iso: string): number | null {
  const m = ISO_DATE.exec(iso.slice(0, 10));
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  return Math.floor(ms / 1000);
}

/** Epoch seconds → the UTC calendar date YYYY-MM-DD. */
export function epochToIsoDate(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10);
}

// ---------- validation / normalisation ----------

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const MAX_EPOCH = 253402300799; // 9999-12-31T23:59:59Z

function dateBound(v: unknown): number | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) <= MAX_EPOCH ? v : null;
  if (typeof v === "string") return isoDateToEpoch(v);
  return null;
}

function normaliseValue(info: FilterKeyInfo, raw: unknown): PageFilterValue | undefined | null {
  switch (info.control) {
    case "enum_multi":
    case "tag_array": {
      if (!Array.isArray(raw) || !raw.every((x) => typeof x === "string" && x.length > 0 && x.length <= 500)) return null;
      const values = [...new Set(raw as string[])];
      if (info.enumValues && !values.every((v) => info.enumValues!.includes(v))) return null;
      if (info.valuePattern && !values.every((v) => info.valuePattern!.test(v))) return null;
      return values.length > 0 ? values : undefined; // D-09: the UI omits empty selections
    }
    case "boolean_tri":
      return typeof raw === "boolean" ? raw : null;
    case "substring": {
      if (typeof raw !== "string" || raw.length > 500) return null;
      return raw.trim() ? raw : undefined;
    }
    case "numeric_range": {
      if (!isRecord(raw)) return null;
      const out: NumRange = {};
      for (const b of ["min", "max"] as const) {
        const v = raw[b];
        if (v === undefined || v === null) continue;
        if (typeof v !== "number" || !Number.isFinite(v)) return null;
        out[b] = v;
      }
      if (Object.keys(raw).some((k) => k !== "min" && k !== "max")) return null;
      if (out.min !== undefined && out.max !== undefined && out.min > out.max) return null;
      return out.min === undefined && out.max === undefined ? undefined : out;
    }
    case "date_range": {
      // Page form {min,max} in epoch seconds; an ISO {min,max} or {from,to} pair (as the API and the NL translator
      // produce) or a single YYYY-MM-DD are accepted too and held as epoch seconds.
      if (typeof raw === "string") {
        const at = isoDateToEpoch(raw);
        return at === null ? null : { min: at, max: at };
      }
      if (!isRecord(raw)) return null;
      const keys = Object.keys(raw);
      const lowKey = "from" in raw ? "from" : "min";
      const highKey = "to" in raw ? "to" : "max";
      if (keys.some((k) => k !== lowKey && k !== highKey)) return null;
      const min = dateBound(raw[lowKey]);
      const max = dateBound(raw[highKey]);
      if (min === null || max === null) return null;
      if (min !== undefined && max !== undefined && min > max) return null;
      const out: NumRange = {};
      if (min !== undefined) out.min = min;
      if (max !== undefined) out.max = max;
      return min === undefined && max === undefined ? undefined : out;
    }
  }
}

/**
 * Validate and normalise any filter-shaped value (from the URL or from the NL translator) into the page form.
 * Returns null when anything is wrong: unknown key, wrong shape, value outside its enumeration.
 */
export function normaliseFilter(raw: unknown): PageFilter | null {
  if (!isRecord(raw)) return null;
  const table = filterKeys();
  const out: PageFilter = {};
  for (const key of Object.keys(raw).sort()) {
    const info = table.get(key);
    if (!info) return null;
    const v = normaliseValue(info, raw[key]);
    if (v === null) return null;
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Keys in sorted order so one filter always gives one URL. */
function canonical(filter: PageFilter): PageFilter {
  const out: PageFilter = {};
  for (const k of Object.keys(filter).sort()) out[k] = filter[k];
  return out;
}

/** Page filter → `f` value; the empty filter encodes to "" (the parameter is then left out). */
export function encodeFilter(filter: PageFilter): string {
  const clean = normaliseFilter(filter) ?? {};
  if (Object.keys(clean).length === 0) return "";
  return base64UrlEncode(JSON.stringify(canonical(clean)));
}

export interface DecodedFilter {
  filter: PageFilter;
  /** True when `f` was present but unreadable; the page shows a notice. */
  malformed: boolean;
}

export function decodeFilter(f: string | null | undefined): DecodedFilter {
  if (!f) return { filter: {}, malformed: false };
  try {
    const parsed = normaliseFilter(JSON.parse(base64UrlDecode(f)) as unknown);
    return parsed ? { filter: parsed, malformed: false } : { filter: {}, malformed: true };
  } catch {
    return { filter: {}, malformed: true };
  }
}

/** Page filter → the body's `filters` object: date ranges become ISO `{from,to}` (D-08). */
export function toApiFilter(filter: PageFilter): ApiFilter {
  const table = filterKeys();
  const out: ApiFilter = {};
  for (const [key, value] of Object.entries(filter)) {
    const info = table.get(key);
    if (!info) continue;
    if (info.control === "date_range" && typeof value === "object" && !Array.isArray(value)) {
      const range = value as NumRange;
      const iso: { from?: string; to?: string } = {};
      if (range.min !== undefined) iso.from = epochToIsoDate(range.min);
      if (range.max !== undefined) iso.to = epochToIsoDate(range.max);
      out[key] = iso;
    } else {
      out[key] = value;
    }
  }
  return out;
}
