/**
 * Client view of the search routes (GET /api/search/documents, /autocomplete, /suggest). The normalisers accept both a
 * flat hit (`{id, title, ..., _formatted}`) and the engine's `{document, formatted}` form so the page does not break
 * while the route's body settles.
 */
import { apiFetchWithHeaders, apiFetch, qs } from "./api";
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
}

type Raw = Record<string, unknown>;

function str(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v.join(" … ");
  return null;
}

export function normaliseHit(raw: Raw): ResultHit {
  const doc = (raw.document && typeof raw.document === "object" ? raw.document : raw) as Raw;
  const fm = (raw.formatted ?? raw._formatted ?? doc._formatted ?? raw.highlights ?? {}) as Raw;
  return {
    id: String(doc.id ?? raw.id ?? ""),
    title: str(doc.title) ?? str(doc.base_case_name) ?? "",
    titleHtml: str(fm.title),
    summaryHtml: str(fm.summary),
    summary: str(doc.summary),
    caseNumber: str(doc.case_number),
    courtName: str(doc.court_name),
    decisionDate: str(doc.decision_date),
    jurisdiction: str(doc.jurisdiction),
  };
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
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

export function searchRequestPath(s: SearchUrlState): string {
  return `/api/search/documents${qs({
    q: s.q.trim(),
    semantic_ratio: semanticRatio(s.mode),
    filter: searchFilterExpression(s) || undefined,
    limit: SEARCH_PAGE_SIZE,
    offset: (s.page - 1) * SEARCH_PAGE_SIZE,
  })}`;
}

export async function searchDocuments(s: SearchUrlState, signal?: AbortSignal): Promise<SearchResult> {
  const { data, headers } = await apiFetchWithHeaders<Raw>(searchRequestPath(s), { signal });
  const hits = Array.isArray(data.hits) ? (data.hits as Raw[]).map(normaliseHit) : Array.isArray(data.results) ? (data.results as Raw[]).map(normaliseHit) : [];
  const body = data;
  const guestBody = body.guest && typeof body.guest === "object" ? (body.guest as Raw) : null;
  let guest = guestFromHeaders(headers);
  if (guest && guestBody && typeof guestBody.nudge === "boolean") guest = { ...guest, nudge: guestBody.nudge };
  return {
    hits,
    estimatedTotal: num(body.estimated_total) ?? num(body.estimatedTotal) ?? num(body.total) ?? hits.length,
    processingTimeMs: num(body.processing_time_ms) ?? num(body.processingTimeMs),
    guest,
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
    apiFetch<Raw>(`/api/search/suggest${qs({ q, limit: 5 })}`, { signal }),
    apiFetch<Raw>(`/api/search/autocomplete${qs({ q, limit: 5 })}`, { signal }),
  ]);
  const suggestions =
    sugg.status === "fulfilled" && Array.isArray(sugg.value.suggestions)
      ? (sugg.value.suggestions as unknown[])
          .map((s) => (typeof s === "string" ? s : s && typeof s === "object" ? str((s as Raw).text) : null))
          .filter((s): s is string => !!s)
          .slice(0, 5)
      : [];
  const hits = auto.status === "fulfilled" && Array.isArray(auto.value.hits) ? (auto.value.hits as Raw[]).map(normaliseHit).slice(0, 5) : [];
  return { suggestions, hits };
}
