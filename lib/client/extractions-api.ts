/** Client calls for structured search: filter, aggregate, facets, nl-filter and collections/from-filter. */
import { apiFetch, qs } from "./api";
import type { ApiFilter } from "./filter-codec";

export const RESULTS_PAGE_SIZE = 20;

export interface FilterRow {
  id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string | null;
  decision_date: string | null;
  extracted_data?: Record<string, unknown> | null;
}

export interface FilterResponse {
  results: FilterRow[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export function filterDocuments(filters: ApiFilter, textQuery: string, page: number, signal?: AbortSignal): Promise<FilterResponse> {
  return apiFetch<FilterResponse>("/api/extractions/base-schema/filter", {
    method: "POST",
    signal,
    json: { filters, ...(textQuery ? { text_query: textQuery } : {}), limit: RESULTS_PAGE_SIZE, offset: (page - 1) * RESULTS_PAGE_SIZE },
  });
}

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

export interface AggregateResponse {
  total: number;
  sample_n: number;
  seed: number | null;
  fields: Record<string, Distribution>;
}

export interface AggregateRequest {
  filters: ApiFilter;
  text_query?: string;
  fields: string[];
  sample_size?: number;
  seed?: number;
  top_n?: number;
}

export function aggregate(req: AggregateRequest, signal?: AbortSignal): Promise<AggregateResponse> {
  return apiFetch<AggregateResponse>("/api/extractions/base-schema/aggregate", { method: "POST", signal, json: req });
}

export interface FacetValue {
  value: string;
  count: number;
}

/** Top facet values of a field, optionally narrowed by typed text (draft spec: top 20, cached 60 s). */
export async function facetValues(field: string, q: string, signal?: AbortSignal): Promise<FacetValue[]> {
  const body = await apiFetch<unknown>(`/api/extractions/base-schema/facets${qs({ field, q: q.trim() || undefined, limit: 20 })}`, { signal });
  const pick = (v: unknown): FacetValue[] => {
    if (Array.isArray(v))
      return v
        .map((x) => (x && typeof x === "object" ? { value: String((x as FacetValue).value), count: Number((x as FacetValue).count) || 0 } : typeof x === "string" ? { value: x, count: 0 } : null))
        .filter((x): x is FacetValue => x !== null);
    if (v && typeof v === "object") return Object.entries(v as Record<string, number>).map(([value, count]) => ({ value, count: Number(count) || 0 }));
    return [];
  };
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    return pick(b.values ?? b.facets ?? b.results ?? (b.facetDistribution as Record<string, unknown> | undefined)?.[field] ?? []);
  }
  return pick(body);
}

export interface NlFilterResponse {
  filters: Record<string, unknown>;
  text_query: string | null;
}

export function nlFilter(query: string): Promise<NlFilterResponse> {
  return apiFetch<NlFilterResponse>("/api/extractions/base-schema/nl-filter", { method: "POST", json: { query } });
}

export interface FromFilterResponse {
  collections: { jurisdiction: string | null; collection: { id: string; name: string }; added_count: number }[];
  total_matched: number;
  pair_id: string | null;
}

export function saveFromFilter(body: { name: string; description?: string; filters: ApiFilter; text_query?: string }): Promise<FromFilterResponse> {
  return apiFetch<FromFilterResponse>("/api/collections/from-filter", { method: "POST", json: body });
}
