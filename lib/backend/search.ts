/**
 * Search capability behind GET /api/search/documents, /autocomplete and /suggest (spec: Search and documents).
 * Route handlers parse with the zod schemas below, then call these functions; engine failures surface as
 * `SearchEngineError` (so the guest meter can skip charging) and are mapped to HTTP by `searchErrorToApi`.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { ApiError } from "@/lib/errors";
import type { Identity } from "./identity";
import { config } from "@/lib/config";
import { getSearchEngine } from "@/lib/search/engine";
import {
  DocumentNotFoundError,
  FilterAttributeError,
  FilterSyntaxError,
  SearchEngineError,
  SemanticUnavailableError,
} from "@/lib/search/errors";
import {
  andAll,
  countListValues,
  FilterCapError,
  parseIndexFilter,
  structuredFilterNode,
  UnsupportedFilterKeyError,
  type FilterNode,
} from "@/lib/search/filter";
import { countFilterListValues } from "@/lib/schema/filters";
import { parseFilters } from "@/lib/schema/filters";
import { AUTOCOMPLETE_DEFAULTS, FILTERABLE_ATTRIBUTES, SORTABLE_ATTRIBUTES, TS_SUFFIX } from "@/lib/search/index-settings";
import type { FieldTerm, SearchDocumentsRequest, SearchHit, SortSpec } from "@/lib/search/types";
import { parseSearchQuery } from "@/lib/search/query-syntax";
import { provisionName } from "@/lib/citations/name";
import { parseProvisionQuery } from "@/lib/citations/query";
import { semanticPassages } from "@/lib/search/passage";

export { SearchEngineError } from "@/lib/search/errors";

const limitOf = (def: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(config().PAGE_SIZE_MAX) // D-28: limit > 100 → 422
    .default(def);

export const SearchDocumentsQuery = z.object({
  q: safeText().max(1000).default(""),
  semantic_ratio: z.coerce.number().min(0).max(1).default(0),
  /** Filter expression in the search engine's syntax (spec: Search and documents). */
  filter: safeText().max(8192).optional(),
  /** The structured filter object (BaseSchemaFilters) as JSON. */
  filters: safeText().max(16_384).optional(),
  /** relevance (default) | newest | oldest | cited_by, or "attr:asc,attr2:desc" (Meilisearch sort syntax). */
  sort: safeText().max(500).optional(),
  facets: safeText().max(2000).optional(),
  limit: limitOf(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type SearchDocumentsParams = z.infer<typeof SearchDocumentsQuery>;

export const AutocompleteQuery = z.object({
  q: safeText().max(500).default(""),
  limit: limitOf(AUTOCOMPLETE_DEFAULTS.defaultLimit),
  filter: safeText().max(8192).optional(),
  /** D-01: alias of `filter`; both present and different → 400. */
  filters: safeText().max(8192).optional(),
});
export type AutocompleteParams = z.infer<typeof AutocompleteQuery>;

export const SuggestQuery = z.object({
  q: safeText().max(200).default(""),
  limit: limitOf(8),
});

function filterInvalid(message: string, details: { field?: string; position?: number }): ApiError {
  // One filter error code on every path, 422 FILTER_INVALID (D-06), naming the field where known.
  return new ApiError("FILTER_INVALID", message, details);
}

/**
 * Parse a filter expression into the AST (caps on IN values included). A syntax error is 422 FILTER_INVALID with the
 * position; an unknown or unsearchable attribute, or an IN list over a cap, 422 FILTER_INVALID naming it as `field`.
 */
export function parseFilterParam(expr: string | undefined): FilterNode | undefined {
  try {
    return parseIndexFilter(expr);
  } catch (e) {
    if (e instanceof FilterAttributeError) throw filterInvalid(e.message, { field: e.attribute, position: e.position });
    if (e instanceof FilterCapError) throw filterInvalid(e.message, { field: e.attribute, position: e.position });
    if (e instanceof FilterSyntaxError) throw filterInvalid(e.message, { position: e.position });
    throw e;
  }
}

const FILTERABLE = new Set(FILTERABLE_ATTRIBUTES);

/**
 * The structured filter object of `GET /api/search/documents?filters=` (JSON text) → filter AST. Parsed once, then
 * validated by the one server parser (parseFilters: the same schema, enum sets, real dates, caps and 422 FILTER_INVALID
 * as the structured-search routes), then mapped (lib/search/filter/structured.ts). collection_ids needs Postgres and
 * is refused as on the filter endpoint (400 COLLECTION_IDS_NOT_ALLOWED); keys the index has no attribute for
 * (court_name, substring keys) are 422 FILTER_INVALID naming them, never ignored.
 */
export function structuredFilterToNode(json: string | undefined): { node: FilterNode | undefined; listValues: number } {
  if (json === undefined || json.trim() === "") return { node: undefined, listValues: 0 };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw filterInvalid("filters is not valid JSON", { field: "filters" });
  }
  if (raw === null) throw filterInvalid("filters must be a JSON object.", { field: "filters" });
  const filters = parseFilters(raw);
  try {
    return { node: structuredFilterNode(filters), listValues: countFilterListValues(filters) };
  } catch (e) {
    if (e instanceof UnsupportedFilterKeyError) throw filterInvalid(e.message, { field: e.key });
    throw e;
  }
}

/**
 * The whole filter of a document search: the expression AND the structured object, with FILTER_MAX_TOTAL_VALUES
 * applied to their IN values together (each is also capped on its own by its parser).
 */
export function searchFilter(expr: string | undefined, structured: string | undefined): FilterNode | undefined {
  const fromExpr = parseFilterParam(expr);
  const fromObject = structuredFilterToNode(structured);
  const max = config().FILTER_MAX_TOTAL_VALUES;
  const total = countListValues(fromExpr) + fromObject.listValues;
  if (total > max) {
    throw filterInvalid(`At most ${max} list values per request (FILTER_MAX_TOTAL_VALUES) over filter and filters together, got ${total}`, {
      field: "filters",
    });
  }
  return andAll([fromExpr, fromObject.node]);
}

const SORTABLE = new Set(SORTABLE_ATTRIBUTES);

/** The named orders of the search box and both APIs (docs/search.md "Sorting"); `relevance` is no sort at all. */
const NAMED_SORTS: Record<string, SortSpec[] | undefined> = {
  relevance: undefined,
  newest: [{ attribute: "decision_date", direction: "desc" }],
  oldest: [{ attribute: "decision_date", direction: "asc" }],
};
/** The citator's count of citing judgments (most cited first). */
const CITED_BY_ATTRIBUTE = "cited_by_count";

export function parseSort(sort: string | undefined): SortSpec[] | undefined {
  if (!sort || sort.trim() === "") return undefined;
  const named = sort.trim();
  if (named in NAMED_SORTS) return NAMED_SORTS[named];
  if (named === "cited_by") return [{ attribute: CITED_BY_ATTRIBUTE, direction: "desc" }];
  return sort.split(",").map((part) => {
    const [attribute, dir = "asc"] = part.trim().split(":");
    if (!SORTABLE.has(attribute)) {
      throw new ApiError("INVALID_SORT", `Attribute \`${attribute}\` is not sortable (or use relevance, newest, oldest)`, { attribute });
    }
    if (dir !== "asc" && dir !== "desc") throw new ApiError("INVALID_SORT", `Sort direction must be asc or desc`);
    return { attribute, direction: dir };
  });
}

/**
 * The query language (lib/search/query-syntax.ts) read out of `q`: the engine query, field terms, and the year and
 * jurisdiction fields as a filter ANDed with the request's.
 */
export function searchQueryParts(q: string, filter: FilterNode | undefined): {
  q: string;
  filter: FilterNode | undefined;
  fieldTerms: FieldTerm[];
  warnings: string[];
  /** The provision the whole query named ("art. 279 § 1 k.k."), searched as a `cites` filter instead of its digits. */
  provision?: string;
} {
  const provision = parseProvisionQuery(q);
  if (provision) {
    const cites: FilterNode = { type: "compare", attribute: "cites", op: "=", value: provision };
    return { q: "", filter: andAll([filter, cites]), fieldTerms: [], warnings: [], provision };
  }
  const parsed = parseSearchQuery(q);
  const parts: FilterNode[] = filter ? [filter] : [];
  if (parsed.years) {
    const from = Date.UTC(parsed.years.from, 0, 1) / 1000;
    const to = Date.UTC(parsed.years.to + 1, 0, 1) / 1000 - 1;
    parts.push({ type: "range", attribute: "decision_date" + TS_SUFFIX, from, to });
  }
  if (parsed.jurisdiction) parts.push({ type: "compare", attribute: "jurisdiction", op: "=", value: parsed.jurisdiction });
  const combined = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { type: "and" as const, children: parts };
  return { q: parsed.q, filter: combined, fieldTerms: parsed.fieldTerms, warnings: parsed.warnings };
}

function parseFacets(facets: string | undefined): string[] | undefined {
  if (!facets) return undefined;
  const list = facets.split(",").map((f) => f.trim()).filter(Boolean);
  for (const f of list) {
    if (!FILTERABLE.has(f)) throw new ApiError("INVALID_FACET", `Attribute \`${f}\` is not filterable`, { attribute: f });
  }
  return list;
}

/** A hit as the HTTP API returns it: the document's fields, `_formatted` highlights and `_ranking_score`. */
function toApiHit(h: SearchHit): Record<string, unknown> {
  return { ...h.document, _formatted: h.formatted ?? {}, _ranking_score: Number(h.score.toFixed(4)) };
}

/** The JSON response of a search answer, with the guest meter's headers when there are any. */
export function searchAnswerResponse(body: object, headers?: HeadersInit): Response {
  return Response.json(body, { headers });
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
  /** What in q was read as plain words instead (query-syntax.ts), or could not be honoured exactly; absent when none. */
  query_warnings?: string[];
  /** When q named a provision: its canonical id and name; the hits are the judgments citing it (docs/citations.md). */
  provision?: { id: string; name: string };
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
export async function searchDocuments(
  params: SearchDocumentsParams,
  identity: Pick<Identity, "role">,
  /** A filter already built as an AST (the /api/v1 reference filters), ANDed with the parsed ones. */
  filterNode?: FilterNode,
): Promise<SearchDocumentsBody> {
  const sort = parseSort(params.sort);
  const facets = parseFacets(params.facets);
  const query = searchQueryParts(params.q, andAll([searchFilter(params.filter, params.filters), filterNode]));
  const ratio = identity.role === "anonymous" ? 0 : params.semantic_ratio;
  const r = await getSearchEngine().searchDocuments({
    q: query.q,
    filter: query.filter,
    ...(query.fieldTerms.length > 0 ? { fieldTerms: query.fieldTerms } : {}),
    sort,
    facets,
    limit: params.limit,
    offset: params.offset,
    semanticRatio: ratio,
    ...SEARCH_HIT_FORMAT,
  });
  const hits = r.hits.map(toApiHit);
  if (r.semanticRatio > 0 && query.q.trim() !== "" && hits.length > 0) {
    // Semantic hits show the passage that matched (`_formatted.passage`); the results stand without it.
    try {
      const passages = await semanticPassages(getSearchEngine(), query.q, hits.map((h) => String(h.id)));
      for (const h of hits) {
        const p = passages.get(String(h.id));
        if (p) h._formatted = { ...(h._formatted as Record<string, unknown>), passage: p };
      }
    } catch {
      // No chunks (or their search failed): the hits keep their summary snippets.
    }
  }
  const body: SearchDocumentsBody = {
    hits,
    query: params.q,
    limit: params.limit,
    offset: params.offset,
    // Spec: the first page carries estimated_total (best effort, capped at 1000); later pages carry it too.
    estimated_total: r.estimatedTotal,
    processing_time_ms: r.processingTimeMs,
    embedding_time_ms: r.embeddingTimeMs,
    semantic_ratio: r.semanticRatio,
  };
  if (r.facetDistribution) body.facet_distribution = r.facetDistribution;
  if (query.provision) body.provision = { id: query.provision, name: provisionName(query.provision) };
  const warnings = [...query.warnings, ...(r.warnings ?? [])];
  if (warnings.length > 0) body.query_warnings = warnings;
  return body;
}

export async function autocomplete(params: AutocompleteParams) {
  // D-01: `filter` is canonical, `filters` an alias; both present and different → 400.
  if (params.filter !== undefined && params.filters !== undefined && params.filter !== params.filters) {
    throw new ApiError("CONFLICTING_FILTER", "Pass the filter expression as `filter` or `filters`, not both");
  }
  const filter = parseFilterParam(params.filter ?? params.filters);
  const r = await getSearchEngine().autocomplete({ q: params.q, limit: params.limit, filter });
  return {
    hits: r.hits.map(toApiHit),
    query: params.q,
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
  if (e instanceof SemanticUnavailableError) return new ApiError("SEMANTIC_UNAVAILABLE", e.message);
  if (e instanceof DocumentNotFoundError) return new ApiError("DOCUMENT_NOT_FOUND", "Judgment not found");
  if (e instanceof SearchEngineError) {
    // The code carries the status: 503 for an engine that failed, 504 UPSTREAM_TIMEOUT for one that did not answer (D-31).
    const message = e.code === "UPSTREAM_TIMEOUT" ? "The search engine took too long to answer; try again shortly" : "The search engine is unavailable; try again shortly";
    return new ApiError(e.code, message);
  }
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
