/**
 * Documents and search of the reference API (`/api/v1`): the reference request and response shapes over the
 * existing search backend (lib/backend/search.ts, documents.ts) and one list function of the table. No search logic
 * of its own: this module only translates shapes.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { isJsonObject } from "@/lib/supabase/json";
import { fromDatabaseError } from "@/lib/errors";
import type { V1DocumentsListQuery, V1SearchBody, V1SearchFiltersT, V1SemanticBody, V1SimilarBody } from "@/lib/schema/requests/api-v1";
import type { Identity } from "../identity";
import { similarDocuments } from "../documents";
import { mapSearchErrors, searchDocuments, type SearchDocumentsBody } from "../search";
import { searchMode } from "../search-analytics";
import { dateToEpochSeconds } from "@/lib/search/document";
import { andAll, type FilterNode } from "@/lib/search/filter";

/** The reference paging fields of every list: 1-based page of `per_page` rows, and the number of pages. */
export interface V1Paging {
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export function paging(total: number, limit: number, offset: number): V1Paging {
  return { total, page: Math.floor(offset / limit) + 1, per_page: limit, pages: Math.ceil(total / limit) };
}

const optionalText = z.string().optional();
/** A judgment summary of the list (absent fields omitted): parsed, not cast, from the SQL's jsonb. */
const V1DocumentSummarySchema = z.object({
  id: z.string(),
  case_number: optionalText,
  title: optionalText,
  summary: optionalText,
  court_name: optionalText,
  jurisdiction: z.string(),
  court_level: optionalText,
  case_type: optionalText,
  decision_type: optionalText,
  outcome: optionalText,
  decision_date: optionalText,
  keywords: z.array(z.string()).optional(),
});
export type V1DocumentSummary = z.infer<typeof V1DocumentSummarySchema>;
const V1ListRows = z.object({ results: z.array(V1DocumentSummarySchema), total: z.number() });

export type V1DocumentsList = { results: V1DocumentSummary[] } & V1Paging;

/** GET /api/v1/documents: judgment summaries with exact filters, newest first by default (absent fields omitted). */
export async function listDocumentsV1(serviceDb: DbClient, q: z.infer<typeof V1DocumentsListQuery>): Promise<V1DocumentsList> {
  const { data, error } = await serviceDb.rpc("api_v1_list_documents", {
    p_jurisdiction: q.jurisdiction ?? null,
    p_court_name: q.court_name ?? null,
    p_date_from: q.date_from ?? null,
    p_date_to: q.date_to ?? null,
    p_ascending: q.sort_order === "asc",
    p_limit: q.limit,
    p_offset: q.offset,
  });
  if (error) throw fromDatabaseError(error);
  const body = V1ListRows.parse(data);
  return { results: body.results, ...paging(body.total, q.limit, q.offset) };
}

/** The filter AST of the reference filters: built as a node, never printed and parsed back. */
export function filterNode(f: V1SearchFiltersT | undefined): FilterNode | undefined {
  if (!f) return undefined;
  const parts: FilterNode[] = [];
  const equals = (attribute: string, value: string): FilterNode => ({ type: "compare", attribute, op: "=", value });
  if (f.jurisdiction) parts.push(equals("jurisdiction", f.jurisdiction));
  if (f.court_level) parts.push(equals("court_level", f.court_level));
  if (f.case_type) parts.push(equals("case_type", f.case_type));
  // The citator's any-of, as the web search's `cites` filter (docs/citations.md).
  if (f.cites) parts.push({ type: "in", attribute: "cites", values: f.cites, negated: false });
  // Dates filter on the epoch-second twin (spec: Search and documents); the "to" day is included whole.
  if (f.decision_date_from) parts.push({ type: "compare", attribute: "decision_date_ts", op: ">=", value: dateToEpochSeconds(f.decision_date_from) });
  if (f.decision_date_to) parts.push({ type: "compare", attribute: "decision_date_ts", op: "<", value: dateToEpochSeconds(f.decision_date_to) + 86_400 });
  return andAll(parts);
}

/** keywords are not a filterable attribute of the index: they join the text query, so every one must match. */
const queryWithKeywords = (query: string, f: V1SearchFiltersT | undefined) => [query, ...(f?.keywords ?? [])].join(" ").trim();

const SEMANTIC_RATIO = { text: 0, semantic: 1, hybrid: 0.5 } as const;

const CONTEXT_CHARS = 50;

/**
 * The `<mark>`ed fragments of one highlighted field: each match with up to CONTEXT_CHARS of text either side, cut at
 * word boundaries and never inside a `<mark>…</mark>` pair, overlapping windows merged, at most 3.
 */
export function fragments(formatted: unknown): string[] {
  if (typeof formatted !== "string" || !formatted.includes("<mark>")) return [];
  const marks = [...formatted.matchAll(/<mark>[\s\S]*?<\/mark>/g)].map((m) => ({ s: m.index, e: m.index + m[0].length }));
  const windows: { s: number; e: number }[] = [];
  for (const m of marks) {
    const w = { s: Math.max(0, m.s - CONTEXT_CHARS), e: Math.min(formatted.length, m.e + CONTEXT_CHARS) };
    for (const o of marks) {
      if (w.s > o.s && w.s < o.e) w.s = o.s;
      if (w.e > o.s && w.e < o.e) w.e = o.e;
    }
    const last = windows[windows.length - 1];
    if (last && w.s <= last.e) last.e = Math.max(last.e, w.e);
    else windows.push(w);
  }
  return windows.slice(0, 3).map(({ s: start, e: end }) => {
    let s = start;
    let e = end;
    const firstMark = formatted.indexOf("<mark>", s);
    const lastMarkEnd = formatted.lastIndexOf("</mark>", e) + "</mark>".length;
    if (s > 0) {
      const space = formatted.indexOf(" ", s);
      if (space !== -1 && space < firstMark) s = space + 1;
    }
    if (e < formatted.length) {
      const space = formatted.lastIndexOf(" ", e);
      if (space >= lastMarkEnd) e = space;
    }
    return `${s > 0 ? "…" : ""}${formatted.slice(s, e).trim()}${e < formatted.length ? "…" : ""}`;
  });
}

export interface V1SimilarItem {
  id: string;
  case_number: string | null;
  title: string | null;
  similarity: number;
}

export type V1SearchResult = Record<string, unknown> & {
  id: string;
  score: number;
  highlights?: { full_text: string[]; summary: string[] };
  similar?: V1SimilarItem[];
};

export type V1SearchResponse = { results: V1SearchResult[] } & V1Paging & {
  search_metadata: {
    query_time_ms: number;
    search_type: "text" | "semantic" | "hybrid";
    embedding_time_ms: number;
    /** The query language's warnings (docs/search.md "Query language"); absent when none. */
    query_warnings?: string[];
  };
};

function toResult(hit: Record<string, unknown>, includeHighlights: boolean): V1SearchResult {
  const { _formatted: formatted, _ranking_score: score, ...doc } = hit;
  const f = isJsonObject(formatted as never) ? (formatted as Record<string, unknown>) : {};
  const out: V1SearchResult = { ...doc, id: String(doc.id), score: Number(score ?? 0) };
  // full_text is searchable but never returned by the index (spec), so its fragments come only when the engine
  // formats it; the summary's always do.
  if (includeHighlights) out.highlights = { full_text: fragments(f.full_text), summary: fragments(f.summary ?? f.title) };
  return out;
}

/** POST /api/v1/documents/search over searchDocuments (the web search), as the key's user. */
export async function searchDocumentsV1(
  body: z.infer<typeof V1SearchBody>,
  identity: Identity,
): Promise<{ response: V1SearchResponse; raw: SearchDocumentsBody }> {
  const raw = await mapSearchErrors(() =>
    searchDocuments(
      {
        q: queryWithKeywords(body.query, body.filters),
        semantic_ratio: SEMANTIC_RATIO[body.search_type],
        filter: undefined,
        filters: undefined,
        sort: body.sort,
        facets: undefined,
        limit: body.limit,
        offset: body.offset,
      },
      identity,
      filterNode(body.filters),
    ),
  );
  const results = raw.hits.map((h) => toResult(h, body.include_highlights));
  if (body.include_similar) {
    await Promise.all(results.slice(0, 5).map(async (r) => (r.similar = (await similarV1(r.id, { limit: 3 })).results)));
  }
  return {
    raw,
    response: {
      results,
      ...paging(raw.estimated_total, body.limit, body.offset),
      search_metadata: {
        query_time_ms: raw.processing_time_ms,
        search_type: searchMode(raw.semantic_ratio),
        embedding_time_ms: raw.embedding_time_ms,
        ...(raw.query_warnings ? { query_warnings: raw.query_warnings } : {}),
      },
    },
  };
}

/** POST /api/v1/documents/{id}/similar over similarDocuments. */
export async function similarV1(id: string | undefined, body: z.infer<typeof V1SimilarBody>): Promise<{ results: V1SimilarItem[]; total: number }> {
  const r = await similarDocuments(id, { limit: body.limit, offset: 0, filter: undefined });
  const results = r.results.map((d) => {
    const doc = d as Record<string, unknown>;
    return {
      id: String(doc.id),
      case_number: typeof doc.case_number === "string" ? doc.case_number : null,
      title: typeof doc.title === "string" ? doc.title : null,
      similarity: d.similarity,
    };
  });
  return { results, total: results.length };
}

export interface V1SemanticResponse {
  results: (V1SimilarItem & { excerpt: string | null })[];
  total: number;
  query_metadata: { embedding_time_ms: number; search_time_ms: number };
}

/**
 * POST /api/v1/search/semantic: the web search at semantic ratio 1 (the active embedder; `local-hash` when no model is
 * configured), keeping hits at or above min_similarity. A key without a user searches as a guest would: lexically.
 */
export async function semanticV1(body: z.infer<typeof V1SemanticBody>, identity: Identity): Promise<V1SemanticResponse> {
  const raw = await mapSearchErrors(() =>
    searchDocuments(
      { q: queryWithKeywords(body.query, body.filters), semantic_ratio: 1, filter: undefined, filters: undefined, sort: undefined, facets: undefined, limit: body.limit, offset: 0 },
      identity,
      filterNode(body.filters),
    ),
  );
  const results = raw.hits
    .map((h) => {
      const f = (h._formatted ?? {}) as Record<string, unknown>;
      return {
        id: String(h.id),
        case_number: typeof h.case_number === "string" ? h.case_number : null,
        title: typeof h.title === "string" ? h.title : null,
        similarity: Number(h._ranking_score ?? 0),
        excerpt: typeof f.summary === "string" ? f.summary : typeof h.summary === "string" ? h.summary : null,
      };
    })
    .filter((r) => r.similarity >= body.min_similarity);
  return { results, total: results.length, query_metadata: { embedding_time_ms: raw.embedding_time_ms, search_time_ms: raw.processing_time_ms } };
}

const counts = z.record(z.string(), z.number());
const V1FacetsSchema = z.object({
  facets: z.object({ jurisdiction: counts, court_level: counts, case_type: counts, year: counts }),
  total: z.number(),
});
export type V1FacetsResponse = z.infer<typeof V1FacetsSchema>;

/** POST /api/v1/search/facets: exact counts from the table (keywords: every one must be among the judgment's). */
export async function facetsV1(serviceDb: DbClient, filters: Omit<V1SearchFiltersT, "cites"> | undefined): Promise<V1FacetsResponse> {
  const { data, error } = await serviceDb.rpc("api_v1_facets", {
    p_jurisdiction: filters?.jurisdiction ?? null,
    p_court_level: filters?.court_level ?? null,
    p_case_type: filters?.case_type ?? null,
    p_date_from: filters?.decision_date_from ?? null,
    p_date_to: filters?.decision_date_to ?? null,
    p_keywords: filters?.keywords ?? null,
  });
  if (error) throw fromDatabaseError(error);
  return V1FacetsSchema.parse(data);
}
