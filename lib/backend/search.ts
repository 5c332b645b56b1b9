/**
 * Search capability behind GET /api/search/documents, /autocomplete and /suggest (spec: Search and documents).
 * Route handlers parse with the zod schemas below, then call these functions; engine failures surface as
 * `SearchEngineError` (so the guest meter can skip charging) and are mapped to HTTP by `searchErrorToApi`.
 */
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { Identity } from "@/lib/api/identity";
import { config } from "@/lib/config";
import { ALL_FIELDS, indexAttribute } from "@/lib/schema";
import { getSearchEngine } from "@/lib/search/engine";
import {
  DocumentNotFoundError,
  FilterAttributeError,
  FilterSyntaxError,
  SearchEngineError,
  SemanticUnavailableError,
} from "@/lib/search/errors";
import { andAll, parseIndexFilter, type FilterNode } from "@/lib/search/filter";
import { dateToEpochSeconds } from "@/lib/search/document";
import { AUTOCOMPLETE_DEFAULTS, FILTERABLE_ATTRIBUTES, SORTABLE_ATTRIBUTES } from "@/lib/search/index-settings";
import type { SearchDocumentsRequest, SearchHit, SortSpec } from "@/lib/search/types";
import { apiHit, searchAnswerJson } from "./search-json";

export { SearchEngineError } from "@/lib/search/errors";

const limitOf = (def: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(config().PAGE_SIZE_MAX) // D-28: limit > 100 → 422
    .default(def);

export const SearchDocumentsQuery = z.object({
  q: z.string().max(1000).default(""),
  semantic_ratio: z.coerce.number().min(0).max(1).default(0),
  /** Filter expression in the search engine's syntax (spec: Search and documents). */
  filter: z.string().max(8192).optional(),
  /** The structured filter object (BaseSchemaFilters) as JSON. */
  filters: z.string().max(16_384).optional(),
  /** "attr:asc,attr2:desc" (Meilisearch sort syntax). */
  sort: z.string().max(500).optional(),
  facets: z.string().max(2000).optional(),
  limit: limitOf(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type SearchDocumentsParams = z.infer<typeof SearchDocumentsQuery>;

export const AutocompleteQuery = z.object({
  q: z.string().max(500).default(""),
  limit: limitOf(AUTOCOMPLETE_DEFAULTS.defaultLimit),
  filter: z.string().max(8192).optional(),
  /** D-01: alias of `filter`; both present and different → 400. */
  filters: z.string().max(8192).optional(),
});
export type AutocompleteParams = z.infer<typeof AutocompleteQuery>;

export const SuggestQuery = z.object({
  q: z.string().max(200).default(""),
  limit: limitOf(8),
});

/** Parse a filter expression into the AST; errors become 400 with the position or the attribute name. */
export function parseFilterParam(expr: string | undefined): FilterNode | undefined {
  try {
    return parseIndexFilter(expr);
  } catch (e) {
    if (e instanceof FilterAttributeError) {
      throw new ApiError(400, "INVALID_FILTER", e.message, { attribute: e.attribute, position: e.position });
    }
    if (e instanceof FilterSyntaxError) {
      throw new ApiError(400, "INVALID_FILTER", e.message, { position: e.position });
    }
    throw e;
  }
}

const FILTERABLE = new Set(FILTERABLE_ATTRIBUTES);

function filterInvalid(field: string, message: string): ApiError {
  // D-06: unknown key or wrong shape → 422 FILTER_INVALID naming the field, never ignored.
  return new ApiError(422, "FILTER_INVALID", message, { field });
}

function dateRange(attr: string, key: string, v: unknown): FilterNode | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}$/;
  if (typeof v === "string") {
    if (!iso.test(v)) throw filterInvalid(key, `${key} must be YYYY-MM-DD or {from,to}`);
    const t = dateToEpochSeconds(v);
    return { type: "range", attribute: attr, from: t, to: t + 86_399 };
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw filterInvalid(key, `${key} must be a date or {from,to}`);
  const o = v as Record<string, unknown>;
  const from = o.from ?? o.min; // D-08: {min,max} are ISO aliases of {from,to}
  const to = o.to ?? o.max;
  const parts: FilterNode[] = [];
  for (const [bound, op] of [
    [from, ">="],
    [to, "<="],
  ] as const) {
    if (bound === undefined || bound === null) continue;
    if (typeof bound !== "string" || !iso.test(bound)) throw filterInvalid(key, `${key} bounds must be YYYY-MM-DD`);
    const t = dateToEpochSeconds(bound) + (op === "<=" ? 86_399 : 0);
    parts.push({ type: "compare", attribute: attr, op, value: t });
  }
  return andAll(parts);
}

/**
 * The structured filter object (BaseSchemaFilters) → filter AST, with the spec's control-to-clause mapping:
 * enum_multi / tag_array → IN (empty list matches nothing, D-09), boolean_tri → = true/false, numeric_range →
 * >= min AND <= max, date_range → the epoch twin (D-26). collection_ids needs Postgres and is refused here.
 */
export function structuredFilterToNode(json: string | undefined): FilterNode | undefined {
  if (json === undefined || json.trim() === "") return undefined;
  let obj: unknown;
  try {
    obj = JSON.parse(json);
  } catch {
    throw new ApiError(400, "INVALID_FILTER", "filters is not valid JSON");
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw filterInvalid("filters", "filters must be an object");
  const parts: FilterNode[] = [];
  for (const [key, value] of Object.entries(obj as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (key === "collection_ids") throw new ApiError(400, "COLLECTION_IDS_NOT_ALLOWED", "collection_ids is not accepted by search");
    if (key === "jurisdiction") {
      if (!Array.isArray(value)) throw filterInvalid(key, "jurisdiction must be a list");
      parts.push({ type: "in", attribute: "jurisdiction", values: value.map(String), negated: false });
      continue;
    }
    if (key === "decision_date") {
      const n = dateRange("decision_date_ts", key, value);
      if (n) parts.push(n);
      continue;
    }
    const field = ALL_FIELDS.find((f) => f.name === key);
    const attr = field ? indexAttribute(field) : undefined;
    if (!field || !attr || !FILTERABLE.has(attr)) throw filterInvalid(key, `Unknown or unsearchable filter key: ${key}`);
    switch (field.control) {
      case "enum_multi":
      case "tag_array":
        if (!Array.isArray(value) || !value.every((x) => typeof x === "string")) {
          throw filterInvalid(key, `${key} must be a list of strings`);
        }
        parts.push({ type: "in", attribute: attr, values: value, negated: false });
        break;
      case "boolean_tri":
        if (typeof value !== "boolean") throw filterInvalid(key, `${key} must be true or false`);
        parts.push({ type: "compare", attribute: attr, op: "=", value });
        break;
      case "numeric_range": {
        if (typeof value === "number") {
          parts.push({ type: "compare", attribute: attr, op: "=", value });
          break;
        }
        const o = value as Record<string, unknown>;
        if (typeof o !== "object" || Array.isArray(o)) throw filterInvalid(key, `${key} must be {min,max}`);
        for (const [b, op] of [
          ["min", ">="],
          ["max", "<="],
        ] as const) {
          if (o[b] === undefined || o[b] === null) continue;
          if (typeof o[b] !== "number" || !Number.isFinite(o[b])) throw filterInvalid(key, `${key}.${b} must be a number`);
          parts.push({ type: "compare", attribute: attr, op, value: o[b] as number });
        }
        break;
      }
      case "date_range": {
        const n = dateRange(attr, key, value);
        if (n) parts.push(n);
        break;
      }
      default:
        throw filterInvalid(key, `${key} cannot be used as a search filter`);
    }
  }
  return andAll(parts);
}

const SORTABLE = new Set(SORTABLE_ATTRIBUTES);

export function parseSort(sort: string | undefined): SortSpec[] | undefined {
  if (!sort || sort.trim() === "") return undefined;
  return sort.split(",").map((part) => {
    const [attribute, dir = "asc"] = part.trim().split(":");
    if (!SORTABLE.has(attribute)) {
      throw new ApiError(400, "INVALID_SORT", `Attribute \`${attribute}\` is not sortable`, { attribute });
    }
    if (dir !== "asc" && dir !== "desc") throw new ApiError(400, "INVALID_SORT", `Sort direction must be asc or desc`);
    return { attribute, direction: dir };
  });
}

function parseFacets(facets: string | undefined): string[] | undefined {
  if (!facets) return undefined;
  const list = facets.split(",").map((f) => f.trim()).filter(Boolean);
  for (const f of list) {
    if (!FILTERABLE.has(f)) throw new ApiError(400, "INVALID_FACET", `Attribute \`${f}\` is not filterable`, { attribute: f });
  }
  return list;
}

/** A hit as the HTTP API returns it: the document's fields, `_formatted` highlights and `_ranking_score`. */
function toApiHit(h: SearchHit): Record<string, unknown> {
  return apiHit({ document: h.document, formatted: h.formatted ?? {}, score: Number(h.score.toFixed(4)) });
}

/** The JSON response of a search answer (hits first), serialised with the per-document JSON cache. */
export function searchAnswerResponse(body: { hits: Record<string, unknown>[] } & object, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  return new Response(searchAnswerJson(body as { hits: Record<string, unknown>[] } & Record<string, unknown>), { headers: h });
}

export interface SearchDocumentsBody {
  hits: Record<string, unknown>[];
  query: string;
  limit: number;
  offset: number;
  estimated_total: number;
  processing_time_ms: number;
  embedding_time_ms: number;
  semantic_ratio: number;
  facet_distribution?: Record<string, Record<string, number>>;
}

/** How GET /api/search/documents formats its hits (the benches time the engine with exactly this). */
export const SEARCH_HIT_FORMAT = {
  attributesToHighlight: ["title", "summary", "case_number", "court_name"],
  attributesToCrop: ["summary"],
  cropLength: 40,
} as const satisfies Pick<SearchDocumentsRequest, "attributesToHighlight" | "attributesToCrop" | "cropLength">;

/**
 * Run a document search for `identity`. semantic_ratio is forced to 0 without a signed-in user (spec: Limits).
 * Throws ApiError for bad input (before touching the engine) and SearchEngineError when the engine fails.
 */
export async function searchDocuments(params: SearchDocumentsParams, identity: Identity): Promise<SearchDocumentsBody> {
  const filter = andAll([parseFilterParam(params.filter), structuredFilterToNode(params.filters)]);
  const sort = parseSort(params.sort);
  const facets = parseFacets(params.facets);
  const ratio = identity.role === "anonymous" ? 0 : params.semantic_ratio;
  const r = await getSearchEngine().searchDocuments({
    q: params.q,
    filter,
    sort,
    facets,
    limit: params.limit,
    offset: params.offset,
    semanticRatio: ratio,
    ...SEARCH_HIT_FORMAT,
  });
  const body: SearchDocumentsBody = {
    hits: r.hits.map(toApiHit),
    query: r.query,
    limit: params.limit,
    offset: params.offset,
    // Spec: the first page carries estimated_total (best effort, capped at 1000); later pages carry it too.
    estimated_total: r.estimatedTotal,
    processing_time_ms: r.processingTimeMs,
    embedding_time_ms: r.embeddingTimeMs,
    semantic_ratio: r.semanticRatio,
  };
  if (r.facetDistribution) body.facet_distribution = r.facetDistribution;
  return body;
}

export async function autocomplete(params: AutocompleteParams) {
  // D-01: `filter` is canonical, `filters` an alias; both present and different → 400.
  if (params.filter !== undefined && params.filters !== undefined && params.filter !== params.filters) {
    throw new ApiError(400, "CONFLICTING_FILTER", "Pass the filter expression as `filter` or `filters`, not both");
  }
  const filter = parseFilterParam(params.filter ?? params.filters);
  const r = await getSearchEngine().autocomplete({ q: params.q, limit: params.limit, filter });
  return {
    hits: r.hits.map(toApiHit),
    query: r.query,
    estimated_total: r.estimatedTotal,
    processing_time_ms: r.processingTimeMs,
    topic_hits: r.topicHits,
  };
}

export async function suggest(params: z.infer<typeof SuggestQuery>) {
  const r = await getSearchEngine().suggest({ q: params.q, limit: params.limit });
  return {
    query: params.q,
    suggestions: r.suggestions.map((s) => ({ text: s.text, kind: s.kind, score: Number(s.score.toFixed(2)) })),
    processing_time_ms: r.processingTimeMs,
  };
}

/** Map search-layer errors to the API envelope (spec: Errors — 502 when semantic search is unavailable). */
export function searchErrorToApi(e: unknown): unknown {
  if (e instanceof SemanticUnavailableError) return new ApiError(502, "SEMANTIC_UNAVAILABLE", e.message);
  if (e instanceof DocumentNotFoundError) return new ApiError(404, "DOCUMENT_NOT_FOUND", "Judgment not found");
  if (e instanceof SearchEngineError) return new ApiError(503, e.code, "The search engine is unavailable; try again shortly");
  return e;
}

/** Wrap a backend call so search-layer errors become API errors. */
export async function mapSearchErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw searchErrorToApi(e);
  }
}
