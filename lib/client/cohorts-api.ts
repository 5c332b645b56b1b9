/**
 * Browser calls for cohorts (compare, cite) and the search history page, and the pure helpers their pages share: the
 * `a`/`b` parameters of /cohorts/compare, the comparison's export request, and the BibTeX and CSL-JSON entries of a cited
 * cohort. Bodies are the types lib/backend builds them with.
 */
import type { CitedCohort, CompareCohortsResponse, CreatedCohort, SearchHistoryPage } from "@/lib/backend/responses";
import { apiFetch, qs } from "./api";
import { decodeFilter, toApiFilter, type ApiFilter } from "./filter-codec";
import { searchFiltersFromParams, serializeSearchState, type SearchPageFilters } from "./search-url-state";

export type { CitedCohort, CompareCohortsResponse, CreatedCohort, SearchHistoryPage };
export type CompareField = CompareCohortsResponse["fields"][number];
export type HistoryRow = SearchHistoryPage["results"][number];

/** One side of a compare request. */
export type CohortSideRequest = { filters: ApiFilter; text_query?: string } | { collection_id: string };

/** A side as the page's URL names it: `collection:<uuid>`, or the extraction page's encoded filter `f` (empty: no filter). */
export type CohortParam = { kind: "collection"; id: string } | { kind: "filter"; f: string; filters: ApiFilter } | { kind: "invalid" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseCohortParam(raw: string | null | undefined): CohortParam | null {
  if (raw === null || raw === undefined) return null;
  if (raw.startsWith("collection:")) {
    const id = raw.slice("collection:".length);
    return UUID.test(id) ? { kind: "collection", id: id.toLowerCase() } : { kind: "invalid" };
  }
  const decoded = decodeFilter(raw);
  return decoded.malformed ? { kind: "invalid" } : { kind: "filter", f: raw, filters: toApiFilter(decoded.filter) };
}

export function cohortParamValue(p: CohortParam): string {
  return p.kind === "collection" ? `collection:${p.id}` : p.kind === "filter" ? p.f : "";
}

export function sideRequest(p: CohortParam): CohortSideRequest | null {
  if (p.kind === "collection") return { collection_id: p.id };
  if (p.kind === "filter") return { filters: p.filters };
  return null;
}

export function compareCohorts(body: CompareRequest, signal?: AbortSignal): Promise<CompareCohortsResponse> {
  return apiFetch<CompareCohortsResponse>("/api/cohorts/compare", { method: "POST", json: body, signal });
}

export interface CompareRequest {
  a: CohortSideRequest;
  b: CohortSideRequest;
  fields: string[];
}

/** POST /api/cohorts/compare/export: the same comparison as a file (lib/backend/exports), for the export control. */
export function compareExportTarget(body: CompareRequest, format: string, headers: string): { url: string; json: unknown } {
  return { url: "/api/cohorts/compare/export", json: { ...body, format, headers } };
}

export function citeCohort(body: { filters: ApiFilter; text_query?: string; seed?: number }): Promise<CreatedCohort> {
  return apiFetch<CreatedCohort>("/api/cohorts", { method: "POST", json: body });
}

export function listHistory(limit: number, offset: number): Promise<SearchHistoryPage> {
  return apiFetch<SearchHistoryPage>(`/api/search/analytics/history${qs({ limit, offset })}`);
}

export function deleteHistoryEntry(id: string): Promise<void> {
  return apiFetch<void>(`/api/search/analytics/history/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function clearHistory(): Promise<{ deleted: number }> {
  return apiFetch<{ deleted: number }>("/api/search/analytics/history", { method: "DELETE" });
}

type RerunRow = Pick<HistoryRow, "query" | "mode"> & { params?: HistoryRow["params"] };

/** The page filters a history row restores; null when its filters are ones the search page cannot set (an API search's). */
export function historyFilters(row: RerunRow): SearchPageFilters | null {
  return searchFiltersFromParams(row.params ?? null);
}

/**
 * The /search URL that runs a history row again: its query, its mode when not keyword, and its filters and sort when
 * the search page can set them (else the query and mode alone; the page says so).
 */
export function rerunHref(row: RerunRow): string {
  const mode = row.mode === "semantic" || row.mode === "hybrid" ? row.mode : "text";
  const filters = historyFilters(row) ?? { jurisdiction: [], from: "", to: "", court: "" };
  return `/search${serializeSearchState({ q: row.query, mode, page: 1, ...filters })}`;
}

/** The BibTeX entry of a cited cohort (@misc, keyed by its id). */
export function cohortBibtex(c: Pick<CitedCohort, "id" | "url" | "created_at" | "corpus_version" | "members_count">, title: string, publisher: string): string {
  const esc = (s: string) => s.replace(/[\\{}]/g, (ch) => `\\${ch}`);
  const d = new Date(c.created_at);
  const fields = [
    ["title", title],
    ["howpublished", `\\url{${c.url}}`],
    ["publisher", publisher],
    ["year", String(d.getUTCFullYear())],
    ["month", String(d.getUTCMonth() + 1)],
    ["note", `Corpus version ${c.corpus_version ?? "unknown"}; ${c.members_count} judgments; cohort id ${c.id}`],
  ];
  return `@misc{cohort_${c.id},\n${fields.map(([k, v]) => `  ${k} = {${k === "howpublished" ? v : esc(v)}}`).join(",\n")}\n}\n`;
}

/** The CSL-JSON entry (an array of one item, as citation managers import it). */
export function cohortCslJson(c: Pick<CitedCohort, "id" | "url" | "created_at" | "corpus_version" | "members_count">, title: string, publisher: string): string {
  const d = new Date(c.created_at);
  const item = {
    id: `cohort-${c.id}`,
    type: "dataset",
    title,
    publisher,
    URL: c.url,
    issued: { "date-parts": [[d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]] },
    version: c.corpus_version ?? undefined,
    note: `${c.members_count} judgments; cohort id ${c.id}`,
  };
  return `${JSON.stringify([item], null, 2)}\n`;
}
