/**
 * POST /extractions/base-schema/aggregate: distributions of extracted fields over a cohort, through
 * aggregate_extracted_data. Request rules of the spec are checked here first, so the answer names the field; the SQL
 * checks them again for REST-layer callers.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { AggregateRequest } from "@/lib/schema/requests/structured";
import { aggregableFieldKeys } from "@/lib/schema/filter-fields";

/** One field's distribution, as aggregate_extracted_data builds it (its jsonb_build_object calls, per field kind). */
export interface CategoricalDist {
  kind: "categorical";
  multi: boolean;
  values: { value: string; count: number }[];
  other: number;
  null: number;
  covered: number;
}
export interface NumericDist {
  kind: "numeric";
  buckets: { lo: number; hi: number; count: number }[];
  min: number | null;
  max: number | null;
  null: number;
  covered: number;
}
export interface YearDist {
  kind: "year";
  values: { value: string; count: number }[];
  null: number;
  covered: number;
}
export type Distribution = CategoricalDist | NumericDist | YearDist;

/** The body of POST /api/extractions/base-schema/aggregate: the function's jsonb, unchanged. */
export interface AggregateResult {
  total: number;
  sample_n: number;
  seed: number | null;
  fields: Record<string, Distribution>;
}

const aggregateFailed = () => new ApiError("AGGREGATE_FAILED", "The aggregate could not be computed.");

function isAggregateResult(v: unknown): v is AggregateResult {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.total === "number" &&
    typeof o.sample_n === "number" &&
    (o.seed === null || typeof o.seed === "number") &&
    typeof o.fields === "object" &&
    o.fields !== null &&
    !Array.isArray(o.fields)
  );
}

/** Spec request rules, in order; throws the spec's error for the first one broken. */
export function checkAggregateRequest(req: AggregateRequest): Record<string, unknown> {
  const allowed = new Set(aggregableFieldKeys());
  const bad = (req.fields ?? []).find((f) => !allowed.has(f));
  if (bad !== undefined) throw new ApiError("FIELD_NOT_AGGREGABLE", `Field "${bad}" is not aggregable.`, { field: bad });
  if (req.sample_size != null && req.seed == null) {
    throw new ApiError("FIELD_NOT_AGGREGABLE", "seed is required when sample_size is given.", { field: "seed" });
  }
  return req.filters;
}

export async function aggregateExtractedData(db: DbClient, req: AggregateRequest): Promise<AggregateResult> {
  const filters = checkAggregateRequest(req);
  const { data, error } = await db.rpc("aggregate_extracted_data", {
    p_filters: jsonArg(filters),
    p_text_query: req.text_query?.trim() || null,
    p_fields: req.fields ?? null,
    p_sample_size: req.sample_size ?? null,
    p_seed: req.seed ?? null,
    p_top_n: req.top_n,
  });
  if (error) {
    const mapped = fromDatabaseError(error, "AGGREGATE_FAILED");
    // Spec: AGGREGATE_FAILED whenever the call raised for a reason other than the request itself.
    throw mapped.status >= 500 && mapped.code !== "DATABASE_UNAVAILABLE" && mapped.code !== "UPSTREAM_TIMEOUT" ? aggregateFailed() : mapped;
  }
  if (!isAggregateResult(data)) throw aggregateFailed();
  return data;
}
