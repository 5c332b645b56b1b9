/**
 * Client view of the search routes (GET /api/search/documents, /autocomplete, /suggest): their bodies are the types
 * lib/backend builds them with; a hit (`{...document fields, _formatted, _ranking_score}`) becomes a ResultHit.
 */
import type { GuestSession } from "@/lib/backend/guest";
import type { AutocompleteBody, SearchDocumentsBody, SuggestBody } from "@/lib/backend/responses";
import { apiFetchWithHeaders, apiFetch, isRecord, qs } from "./api";
import { SEARCH_PAGE_SIZE, searchFilterExpression, semanticRatio, type SearchUrlState } from "./search-url-state";

export interface ResultHit {
  id: string;
  title: string;
  /** Highlighted (HTML-escaped with <mark>) versions, when the engine gave them. */
  titleHtml: string | null;
  summaryHtml: string | null;
  summary: string | null;
  caseNumber: string | null;
  courtName: string | null;
  decisionDate: string | null;
  jurisdiction: string | null;
}

export interface GuestAllowance {
  limit: number;
  remaining: number;
  nudge: boolean;
}

export interface SearchResult {
  hits: ResultHit[];
  estimatedTotal: number;
  processingTimeMs: number | null;
  guest: GuestAllowance | null;
  /** When the query named a provision: the judgments listed are those applying it (its page links from the answer). */
  provision?: { id: string; name: string } | null;
}

/** What the /search client island starts from: its query key (serializeSearchState) and the answer the server gave for it. */
export interface InitialSearch {
  key: string;
  result: SearchResult;
}

/** A field of a hit: the index stores text as a string, a cropped highlight may come as several pieces. */
function str(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v.join(" … ");
  return null;
}

/** A hit of a search answer, as the result list shows it. */
export function toResultHit(hit: SearchDocumentsBody["hits"][number]): ResultHit {
  const fm = isRecord(hit._formatted) ? hit._formatted : {};
  return {
    id: String(hit.id ?? ""),
    title: str(hit.title) ?? str(hit.base_case_name) ?? "",
    titleHtml: str(fm.title),
    // A semantic hit's matching passage, when the search found one, says more than the summary.
    summaryHtml: str(fm.passage) ?? str(fm.summary),
    summary: str(hit.summary),
    caseNumber: str(hit.case_number),
    courtName: str(hit.court_name),
    decisionDate: str(hit.decision_date),
    jurisdiction: str(hit.jurisdiction),
  };
}

/** Guest allowance from the response headers (spec: Guest search allowance; D-11: signed-in callers get none). */
export function guestFromHeaders(h: Headers): GuestAllowance | null {
  const limit = Number(h.get("x-guest-search-limit"));
  const remainingRaw = h.get("x-guest-searches-remaining");
  if (!remainingRaw || !Number.isFinite(limit) || limit <= 0) return null;
  const remaining = Number(remainingRaw);
  if (!Number.isFinite(remaining)) return null;
  // The server decides when to nudge (X-Guest-Upgrade-Nudge at the threshold, spec: Limits).
  const flag = h.get("x-guest-upgrade-nudge");
  return { limit, remaining, nudge: flag === "true" || flag === "1" };
}

/** The same allowance from a metered session (a server-rendered first page: lib/api/page-search.ts). */
export function guestFromSession(s: Pick<GuestSession, "limit" | "remaining" | "nudge">): GuestAllowance {
  return { limit: s.limit, remaining: s.remaining, nudge: s.nudge };
}

export function searchRequestPath(s: SearchUrlState): string {
  return `/api/search/documents${qs({
    q: s.q.trim(),
    semantic_ratio: semanticRatio(s.mode),
    filter: searchFilterExpression(s) || undefined,
    sort: s.sort && s.sort !== "relevance" ? s.sort : undefined,
    limit: SEARCH_PAGE_SIZE,
    offset: (s.page - 1) * SEARCH_PAGE_SIZE,
  })}`;
}

/** GET /api/search/export: the same search (query, filter, sort, mode) as a file of up to 1,000 results. */
export function searchExportPath(s: SearchUrlState, format: string, headers: string): string {
  return `/api/search/export${qs({
    q: s.q.trim(),
    semantic_ratio: semanticRatio(s.mode),
    filter: searchFilterExpression(s) || undefined,
    sort: s.sort && s.sort !== "relevance" ? s.sort : undefined,
    format,
    headers,
  })}`;
}

export async function searchDocuments(s: SearchUrlState, signal?: AbortSignal): Promise<SearchResult> {
  const { data, headers } = await apiFetchWithHeaders<SearchDocumentsBody>(searchRequestPath(s), { signal });
  return {
    hits: data.hits.map(toResultHit),
    estimatedTotal: data.estimated_total,
    processingTimeMs: data.processing_time_ms,
    guest: guestFromHeaders(headers),
    provision: data.provision ?? null,
  };
}

export interface Suggestion {
  text: string;
}

export interface Typeahead {
  suggestions: string[];
  hits: ResultHit[];
}

export async function fetchTypeahead(q: string, signal?: AbortSignal): Promise<Typeahead> {
  const [sugg, auto] = await Promise.allSettled([
    apiFetch<SuggestBody>(`/api/search/suggest${qs({ q, limit: 5 })}`, { signal }),
    apiFetch<AutocompleteBody>(`/api/search/autocomplete${qs({ q, limit: 5 })}`, { signal }),
  ]);
  const suggestions =
    sugg.status === "fulfilled"
      ? sugg.value.suggestions
          .map((s) => s.text)
          .filter((s) => !!s)
          .slice(0, 5)
      : [];
  const hits = auto.status === "fulfilled" ? auto.value.hits.map(toResultHit).slice(0, 5) : [];
  return { suggestions, hits };
}
