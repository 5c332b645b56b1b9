/**
 * URL state of /search/extractions (spec: Web page URL state): `f` (filter, see filter-codec), `q` (text query),
 * `page` (1-based), `nl` (the originating question, at most 255 characters). Back/forward and shared links restore
 * the page from these alone.
 */
import { decodeFilter, encodeFilter, type PageFilter } from "./filter-codec";

export const NL_MAX = 255;
export const TEXT_QUERY_MAX = 1000;

export interface ExtractionUrlState {
  filter: PageFilter;
  q: string;
  page: number;
  nl: string;
  /** `f` was present but unreadable. */
  malformed: boolean;
}

type ParamSource = { get(name: string): string | null };

export function parsePage(raw: string | null): number {
  if (!raw || !/^\d{1,6}$/.test(raw)) return 1;
  const n = Number(raw);
  return n >= 1 ? n : 1;
}

export function parseExtractionState(params: ParamSource): ExtractionUrlState {
  const { filter, malformed } = decodeFilter(params.get("f"));
  return {
    filter,
    malformed,
    q: (params.get("q") ?? "").slice(0, TEXT_QUERY_MAX),
    page: parsePage(params.get("page")),
    nl: (params.get("nl") ?? "").slice(0, NL_MAX),
  };
}

/** The query string for a state; empty parts are left out and page 1 is implicit. */
export function serializeExtractionState(state: Omit<ExtractionUrlState, "malformed">): string {
  const sp = new URLSearchParams();
  const f = encodeFilter(state.filter);
  if (f) sp.set("f", f);
  if (state.q.trim()) sp.set("q", state.q.trim().slice(0, TEXT_QUERY_MAX));
  if (state.page > 1) sp.set("page", String(state.page));
  if (state.nl.trim()) sp.set("nl", state.nl.trim().slice(0, NL_MAX));
  const s = sp.toString();
  return s ? `?${s}` : "";
}

/** Link from a result row to the judgment: same `f`, and the #base-fields anchor when `f` is non-empty. */
export function documentHref(id: string, f: string): string {
  const base = `/documents/${encodeURIComponent(id)}`;
  return f ? `${base}?f=${encodeURIComponent(f)}#base-fields` : base;
}
