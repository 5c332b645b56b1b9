/**
 * POST /api/cohorts/compare (and its /api/v1 twin): two cohorts side by side over some aggregable fields. Each side is
 * a filter (the one filter parser, the one matching predicate) or one of the caller's collections. The database
 * counts each field's values per cohort (cohort_field_values); the shares, medians and 95 % intervals are computed
 * here (lib/analysis/cohort-stats): Newcombe's hybrid score interval for a difference of shares, a seeded percentile
 * bootstrap for a difference of medians. Differences are a − b.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { aggregableFieldKeys, aggregateKind, filterFieldSpec } from "@/lib/schema/filter-fields";
import type { BaseSchemaFilters } from "@/lib/schema/filters";
import type { CohortSide, CompareCohortsRequest } from "@/lib/schema/requests/cohorts";
import { expandSorted, median, medianDifference, quantileSorted, shareDifference } from "@/lib/analysis/cohort-stats";
import { collectionNotFound } from "@/lib/backend/extractions/db-errors";
import { countVisibleCollections } from "@/lib/backend/collections/collections";

export interface CompareValueRow {
  value: string;
  a_count: number;
  b_count: number;
  a_share: number;
  b_share: number;
  diff: number;
  ci_low: number;
  ci_high: number;
}

export interface CompareCategoricalField {
  field: string;
  /** "year" for date fields (values are years, ascending), else "categorical" (most frequent first). */
  kind: "categorical" | "year";
  /** Whether one judgment can hold several values (shares then need not add up to 1). */
  multi: boolean;
  values: CompareValueRow[];
  /** Judgments holding any value of the field, per side. */
  a_covered: number;
  b_covered: number;
}

export interface NumericSummary {
  n: number;
  median: number | null;
  q1: number | null;
  q3: number | null;
  min: number | null;
  max: number | null;
}

export interface CompareNumericField {
  field: string;
  kind: "numeric";
  a: NumericSummary;
  b: NumericSummary;
  /** Median a − median b and its bootstrap interval; null when a side has no value. */
  diff: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** Shared bins over both cohorts (at most 10), for side-by-side histograms. */
  bins: { lo: number; hi: number; a_count: number; b_count: number }[];
}

export type CompareField = CompareCategoricalField | CompareNumericField;

export interface CompareCohortsResponse {
  a: { size: number };
  b: { size: number };
  confidence: 0.95;
  seed: number;
  bootstrap_resamples: number;
  fields: CompareField[];
}

/** What a side reads: a filter object and text query (a collection becomes its collection_ids filter). */
interface ResolvedSide {
  filters: BaseSchemaFilters;
  textQuery: string | null;
}

/**
 * How a collection side's ownership is checked: through the caller's RLS-bound client on the web, or for an API key's
 * user (the /api/v1 route reads with the service role, so it must ask first).
 */
export type CollectionOwnership = { kind: "rls" } | { kind: "user"; userId: string };

async function resolveSide(db: DbClient, side: CohortSide, owner: CollectionOwnership): Promise<ResolvedSide> {
  if (side.collection_id === undefined) return { filters: side.filters, textQuery: side.text_query?.trim() || null };
  const id = side.collection_id.toLowerCase();
  let owned: boolean;
  if (owner.kind === "rls") owned = (await countVisibleCollections(db, [id])) === 1;
  else {
    const { data, error } = await db.rpc("collection_owned_by", { p_collection_id: id, p_user_id: owner.userId });
    if (error) throw fromDatabaseError(error);
    owned = data === true;
  }
  // Another user's collection and one that does not exist answer the same (D-30).
  if (!owned) throw collectionNotFound();
  return { filters: { collection_ids: [id] }, textQuery: null };
}

interface SideCounts {
  size: number;
  /** field → value → judgments. */
  categorical: Map<string, Map<string, number>>;
  /** field → numeric values with multiplicities. */
  numeric: Map<string, { values: number[]; counts: number[] }>;
  /** field → judgments holding any value. */
  covered: Map<string, number>;
}

async function sideCounts(db: DbClient, side: ResolvedSide, fields: string[]): Promise<SideCounts> {
  const { data, error } = await db.rpc("cohort_field_values", {
    p_filters: jsonArg(side.filters),
    p_text_query: side.textQuery,
    p_fields: fields,
  });
  if (error) throw fromDatabaseError(error, "AGGREGATE_FAILED");
  const out: SideCounts = { size: 0, categorical: new Map(), numeric: new Map(), covered: new Map() };
  for (const row of data) {
    const n = Number(row.n);
    if (row.field === "*") {
      out.size = n;
      continue;
    }
    if (row.x !== null) {
      const num = out.numeric.get(row.field) ?? { values: [], counts: [] };
      num.values.push(Number(row.x));
      num.counts.push(n);
      out.numeric.set(row.field, num);
    } else if (row.v !== null) {
      const cat = out.categorical.get(row.field) ?? new Map<string, number>();
      cat.set(row.v, (cat.get(row.v) ?? 0) + n);
      out.categorical.set(row.field, cat);
    } else out.covered.set(row.field, n);
  }
  return out;
}

function summary(sorted: Float64Array): NumericSummary {
  return {
    n: sorted.length,
    median: median(sorted),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    min: sorted.length ? sorted[0] : null,
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

/** At most 10 equal-width bins over both cohorts' range; integer fields get whole-number edges. */
function sharedBins(a: Float64Array, b: Float64Array, integer: boolean): CompareNumericField["bins"] {
  const all = [a, b].filter((s) => s.length > 0);
  if (!all.length) return [];
  const lo = Math.min(...all.map((s) => s[0]));
  const hi = Math.max(...all.map((s) => s[s.length - 1]));
  const span = integer ? hi - lo + 1 : hi - lo;
  const nb = span === 0 ? 1 : integer ? Math.min(10, span) : 10;
  const width = span === 0 ? 1 : integer ? Math.ceil(span / nb) : span / nb;
  const bins = Array.from({ length: nb }, (_, k) => ({ lo: lo + k * width, hi: k === nb - 1 && !integer ? hi : lo + (k + 1) * width, a_count: 0, b_count: 0 }));
  const at = (v: number) => Math.min(nb - 1, Math.floor((v - lo) / width));
  for (const v of a) bins[at(v)].a_count++;
  for (const v of b) bins[at(v)].b_count++;
  return bins.filter((bin, k) => k === 0 || bin.lo <= hi);
}

function categoricalField(field: string, kind: "categorical" | "year", multi: boolean, a: SideCounts, b: SideCounts, topN: number): CompareCategoricalField {
  const ca = a.categorical.get(field) ?? new Map<string, number>();
  const cb = b.categorical.get(field) ?? new Map<string, number>();
  const values = [...new Set([...ca.keys(), ...cb.keys()])];
  const rows = values.map((value): CompareValueRow => {
    const x1 = ca.get(value) ?? 0;
    const x2 = cb.get(value) ?? 0;
    const d = shareDifference(x1, a.size, x2, b.size);
    return {
      value,
      a_count: x1,
      b_count: x2,
      a_share: a.size ? x1 / a.size : 0,
      b_share: b.size ? x2 / b.size : 0,
      diff: d.diff,
      ci_low: d.low,
      ci_high: d.high,
    };
  });
  if (kind === "year") rows.sort((p, q) => Number(p.value) - Number(q.value));
  else rows.sort((p, q) => q.a_count + q.b_count - (p.a_count + p.b_count) || (p.value < q.value ? -1 : p.value > q.value ? 1 : 0));
  return {
    field,
    kind,
    multi,
    values: kind === "year" ? rows : rows.slice(0, topN),
    a_covered: a.covered.get(field) ?? 0,
    b_covered: b.covered.get(field) ?? 0,
  };
}

export async function compareCohorts(db: DbClient, req: CompareCohortsRequest, owner: CollectionOwnership = { kind: "rls" }): Promise<CompareCohortsResponse> {
  const allowed = new Set(aggregableFieldKeys());
  const bad = req.fields.find((f) => !allowed.has(f));
  if (bad !== undefined) throw new ApiError("FIELD_NOT_AGGREGABLE", `Field "${bad}" is not aggregable.`, { field: bad });
  const fields = [...new Set(req.fields)];
  const [sa, sb] = await Promise.all([resolveSide(db, req.a, owner), resolveSide(db, req.b, owner)]);
  const [a, b] = await Promise.all([sideCounts(db, sa, fields), sideCounts(db, sb, fields)]);
  const resamples = config().COHORT_COMPARE_BOOTSTRAP_RESAMPLES;
  const out: CompareField[] = fields.map((field) => {
    const spec = filterFieldSpec(field);
    const dbType = spec?.dbType ?? "text";
    const kind = aggregateKind(dbType);
    if (kind !== "numeric") return categoricalField(field, kind, dbType === "text[]", a, b, req.top_n);
    const va = expandSorted(a.numeric.get(field) ?? { values: [], counts: [] });
    const vb = expandSorted(b.numeric.get(field) ?? { values: [], counts: [] });
    const d = medianDifference(va, vb, { seed: req.seed, key: field, resamples });
    return {
      field,
      kind: "numeric",
      a: summary(va),
      b: summary(vb),
      diff: d?.diff ?? null,
      ci_low: d?.low ?? null,
      ci_high: d?.high ?? null,
      bins: sharedBins(va, vb, dbType === "integer"),
    };
  });
  return { a: { size: a.size }, b: { size: b.size }, confidence: 0.95, seed: req.seed, bootstrap_resamples: resamples, fields: out };
}
