/**
 * Client calls for structured search: filter, aggregate, facets, nl-filter and collections/from-filter. The bodies
 * are the types lib/backend builds them with.
 */
import type {
  AggregateResult,
  Distribution,
  FacetsResponse,
  FilterResponse,
  FilterResultRow,
  FromFilterResponse,
  LegislationLookupBody,
  NlFilterResult,
  NlPreviewResponse,
} from "@/lib/backend/responses";
import { DEFAULT_AGGREGATE_FIELDS } from "@/lib/schema";
import { apiFetch, qs } from "./api";
import type { ApiFilter } from "./filter-codec";

export type { Distribution, FilterResponse, FromFilterResponse };
export type FilterRow = FilterResultRow;
export type AggregateResponse = AggregateResult;
export type FacetValue = FacetsResponse["values"][number];

export const RESULTS_PAGE_SIZE = 20;

/** The body of a results page request (the server-rendered first page builds the same: lib/api/page-extractions.ts). */
export function filterRequest(filters: ApiFilter, textQuery: string, page: number) {
  return { filters, ...(textQuery ? { text_query: textQuery } : {}), limit: RESULTS_PAGE_SIZE, offset: (page - 1) * RESULTS_PAGE_SIZE };
}

export function filterDocuments(filters: ApiFilter, textQuery: string, page: number, signal?: AbortSignal): Promise<FilterResponse> {
  return apiFetch<FilterResponse>("/api/extractions/base-schema/filter", { method: "POST", signal, json: filterRequest(filters, textQuery, page) });
}

/** What the /search/extractions island starts from: the URL key it was rendered for, its results and default aggregate. */
export interface InitialExtractions {
  key: string;
  results: FilterResponse;
  aggregate: AggregateResponse | null;
}

export interface AggregateRequest {
  filters: ApiFilter;
  text_query?: string;
  fields: string[];
  sample_size?: number;
  seed?: number;
  top_n?: number;
}

/** The aggregate panel's request; with no settings, its defaults (the fields of DEFAULT_AGGREGATE_FIELDS, no sample). */
export function aggregateRequest(
  filters: ApiFilter,
  textQuery: string,
  settings: { fields: readonly string[]; sampleSize?: number; seed?: number } = { fields: DEFAULT_AGGREGATE_FIELDS },
): AggregateRequest {
  return {
    filters,
    ...(textQuery ? { text_query: textQuery } : {}),
    fields: [...settings.fields],
    ...(settings.sampleSize ? { sample_size: settings.sampleSize, seed: settings.seed ?? 42 } : {}),
    top_n: 20,
  };
}

export function aggregate(req: AggregateRequest, signal?: AbortSignal): Promise<AggregateResponse> {
  return apiFetch<AggregateResponse>("/api/extractions/base-schema/aggregate", { method: "POST", signal, json: req });
}

/**
 * Top facet values of a field within the cohort of the other active filters (faceted counts), optionally narrowed by
 * typed text (draft spec: top 20, cached 60 s), plus the `include` values with their cohort counts (0 when absent).
 */
export async function facetValues(
  field: string,
  q: string,
  scope: { filters: ApiFilter; textQuery: string; include: readonly string[] },
  signal?: AbortSignal,
): Promise<FacetValue[]> {
  const params = qs({
    field,
    q: q.trim() || undefined,
    limit: 20,
    filters: Object.keys(scope.filters).length ? JSON.stringify(scope.filters) : undefined,
    text_query: scope.textQuery.trim() || undefined,
    include: scope.include.length ? JSON.stringify(scope.include) : undefined,
  });
  const body = await apiFetch<FacetsResponse>(`/api/extractions/base-schema/facets${params}`, { signal });
  return body.values;
}

export function nlFilter(query: string): Promise<NlFilterResult> {
  return apiFetch<NlFilterResult>("/api/extractions/base-schema/nl-filter", { method: "POST", json: { query } });
}

/** The NL box's count preview: the proposal's total and, when 0, the count with each chip dropped. */
export function nlPreview(filters: ApiFilter, textQuery: string | null, signal?: AbortSignal): Promise<NlPreviewResponse> {
  return apiFetch<NlPreviewResponse>("/api/extractions/base-schema/nl-filter/preview", {
    method: "POST",
    signal,
    json: { filters, ...(textQuery ? { text_query: textQuery } : {}) },
  });
}

export function saveFromFilter(body: { name: string; description?: string; filters: ApiFilter; text_query?: string }): Promise<FromFilterResponse> {
  return apiFetch<FromFilterResponse>("/api/collections/from-filter", { method: "POST", json: body });
}

/** GET /api/extractions/base-schema/export: the cohort's rows as a file (lib/backend/exports). */
export function rowsExportHref(filters: ApiFilter, textQuery: string, format: string, headers: string): string {
  return `/api/extractions/base-schema/export${qs({ filters: JSON.stringify(filters), text_query: textQuery.trim() || undefined, format, headers })}`;
}

/** GET /api/extractions/base-schema/aggregate/export: the distributions of an aggregate request as a file. */
export function aggregateExportHref(req: AggregateRequest, format: string, headers: string): string {
  return `/api/extractions/base-schema/aggregate/export${qs({
    filters: JSON.stringify(req.filters),
    text_query: req.text_query,
    fields: req.fields.join(","),
    sample_size: req.sample_size,
    seed: req.sample_size ? req.seed : undefined,
    top_n: req.top_n,
    format,
    headers,
  })}`;
}

export type ProvisionMatch = LegislationLookupBody["results"][number];

/** The provisions a typed text names (GET /api/legislation?q=): the `cites` filter's picker on /search/extractions. */
export async function lookupProvisions(q: string, signal?: AbortSignal): Promise<ProvisionMatch[]> {
  const body = await apiFetch<LegislationLookupBody>(`/api/legislation${qs({ q: q.trim(), limit: 10 })}`, { signal });
  return body.results;
}
