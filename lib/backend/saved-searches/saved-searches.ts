/**
 * Saved searches over the RPCs of supabase/migrations/20261125120000_saved_searches.sql, always with
 * the caller's client: RLS makes another user's saved search invisible, which the API reports as a plain 404 (D-30).
 * The filters a saved search holds go through the same parsers as a live search before they are stored, and a run
 * calls the live search backends (searchDocuments, filterDocuments), never a copy of them.
 */
import { z } from "zod";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { isUuid } from "@/lib/schema/uuid";
import {
  ExtractionsParamsSchema,
  SearchParamsSchema,
  type AlertFrequency,
  type CreateSavedSearch,
  type PatchSavedSearch,
  type SavedSearchKind,
} from "@/lib/schema/requests/accounts";
import { parseFilters } from "@/lib/schema/filters";
import { filterDocuments, type FilterResponse } from "../extractions/filter";
import type { Identity } from "../identity";
import { mapSearchErrors, parseFilterParam, parseSort, searchDocuments, type SearchDocumentsBody } from "../search";

export interface SavedSearch {
  id: string;
  name: string;
  kind: SavedSearchKind;
  query: string;
  params: Record<string, unknown>;
  folder: string | null;
  alert: { enabled: boolean; frequency: AlertFrequency };
  last_run_at: string | null;
  use_count: number;
  created_at: string;
  updated_at: string;
}

/** GET /api/saved-searches. */
export interface SavedSearchPage {
  saved_searches: SavedSearch[];
  total: number;
  page: number;
  limit: number;
  has_more: boolean;
  /** Every folder of the caller with its count (not only this page's). */
  folders: { name: string; count: number }[];
}

/** POST /api/saved-searches/{id}/run: the saved search after the run and the first page of its current results. */
export type SavedSearchRun =
  | { saved_search: SavedSearch; kind: "search"; results: SearchDocumentsBody }
  | { saved_search: SavedSearch; kind: "extractions"; results: FilterResponse };

/** The composite row; its generated type makes every attribute nullable, this parse (not a cast) says which are not. */
const Row = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["search", "extractions"]),
  query: z.string(),
  params: z.record(z.string(), z.unknown()),
  folder: z.string().nullable(),
  alert_enabled: z.boolean(),
  alert_frequency: z.enum(["daily", "weekly"]),
  last_run_at: z.string().nullable(),
  use_count: z.coerce.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export function toSavedSearch(raw: unknown): SavedSearch {
  const r = Row.parse(raw);
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    query: r.query,
    params: r.params,
    folder: r.folder,
    alert: { enabled: r.alert_enabled, frequency: r.alert_frequency },
    last_run_at: r.last_run_at,
    use_count: r.use_count,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export const savedSearchNotFound = () => new ApiError("SAVED_SEARCH_NOT_FOUND");

/** A path id must be a UUID before any lookup. */
export function savedSearchId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw new ApiError("INVALID_SAVED_SEARCH_ID");
  return raw.toLowerCase();
}

/**
 * The params of a kind, normalised (defaults filled) and validated: for "search" the filter expression by the index
 * filter parser and the sort by the sort parser; for "extractions" the filter object by the one filter parser
 * (collection_ids refused as on the filter endpoint). Anything invalid is a 4xx and nothing is stored.
 */
export function validateParams(kind: SavedSearchKind, raw: Record<string, unknown>): Record<string, unknown> {
  if (kind === "search") {
    const p = SearchParamsSchema.safeParse(raw);
    if (!p.success) throw paramsInvalid(p.error);
    parseFilterParam(p.data.filter || undefined);
    parseSort(p.data.sort || undefined);
    return p.data;
  }
  const p = ExtractionsParamsSchema.safeParse(raw);
  if (!p.success) throw paramsInvalid(p.error);
  parseFilters(p.data.f);
  return p.data;
}

function paramsInvalid(error: z.ZodError): ApiError {
  const fields = error.issues.map((i) => ({ field: ["params", ...i.path].join("."), message: i.message }));
  return new ApiError("VALIDATION_ERROR", `Invalid body: ${fields[0]?.field}: ${fields[0]?.message}`, { fields });
}

function saveError(error: { code?: string; message?: string } | null): ApiError {
  if (error?.code === "SS001") return new ApiError("SAVED_SEARCH_LIMIT", `At most ${config().SAVED_SEARCHES_MAX_PER_USER} saved searches per user.`);
  return fromDatabaseError(error);
}

export async function listSavedSearches(db: DbClient, q: { folder?: string; page: number; limit: number }): Promise<SavedSearchPage> {
  const offset = (q.page - 1) * q.limit;
  const [list, folders] = await Promise.all([
    db.rpc("list_saved_searches", { p_folder: q.folder ?? null, p_limit: q.limit, p_offset: offset }),
    db.rpc("list_saved_search_folders"),
  ]);
  if (list.error) throw fromDatabaseError(list.error);
  if (folders.error) throw fromDatabaseError(folders.error);
  const items = list.data.map((r) => toSavedSearch(r.item));
  // Past the last page no row carries the total: count from the first page (one more call, only then).
  let total = list.data.length ? Number(list.data[0].total_count) : 0;
  if (!list.data.length && offset > 0) {
    const first = await db.rpc("list_saved_searches", { p_folder: q.folder ?? null, p_limit: 1, p_offset: 0 });
    if (first.error) throw fromDatabaseError(first.error);
    total = first.data.length ? Number(first.data[0].total_count) : 0;
  }
  return {
    saved_searches: items,
    total,
    page: q.page,
    limit: q.limit,
    has_more: offset + items.length < total,
    folders: folders.data.map((f) => ({ name: String(f.folder), count: Number(f.count) })),
  };
}

export async function createSavedSearch(db: DbClient, body: CreateSavedSearch): Promise<SavedSearch> {
  const params = validateParams(body.kind, body.params);
  const { data, error } = await db.rpc("create_saved_search", {
    p_name: body.name,
    p_kind: body.kind,
    p_query: body.query,
    p_params: jsonArg(params),
    p_folder: body.folder ?? null,
    p_alert_enabled: body.alert?.enabled ?? false,
    p_alert_frequency: body.alert?.frequency ?? "weekly",
    p_max: config().SAVED_SEARCHES_MAX_PER_USER,
  });
  if (error) throw saveError(error);
  return toSavedSearch(data[0]);
}

export async function getSavedSearch(db: DbClient, id: string): Promise<SavedSearch> {
  const { data, error } = await db.rpc("get_saved_search", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (!data[0]) throw savedSearchNotFound();
  return toSavedSearch(data[0]);
}

export async function updateSavedSearch(db: DbClient, id: string, patch: PatchSavedSearch): Promise<SavedSearch> {
  const current = await getSavedSearch(db, id); // 404 first; the kind decides how params are checked
  const p: Record<string, unknown> = {};
  if (patch.name !== undefined) p.name = patch.name;
  if (patch.query !== undefined) p.query = patch.query;
  if (patch.params !== undefined) p.params = validateParams(current.kind, patch.params);
  if (patch.folder !== undefined) p.folder = patch.folder;
  if (patch.alert?.enabled !== undefined) p.alert_enabled = patch.alert.enabled;
  if (patch.alert?.frequency !== undefined) p.alert_frequency = patch.alert.frequency;
  const { data, error } = await db.rpc("update_saved_search", { p_id: id, p_patch: jsonArg(p) });
  if (error) throw fromDatabaseError(error);
  if (!data[0]) throw savedSearchNotFound();
  return toSavedSearch(data[0]);
}

export async function deleteSavedSearch(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_saved_search", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw savedSearchNotFound();
}

/** The semantic ratio of a /search mode (as the page sends it). */
export function ratioOfMode(mode: string): number {
  return mode === "semantic" ? 1 : mode === "hybrid" ? 0.5 : 0;
}

/**
 * Run a saved search: the first page of its current results from the live backend of its kind, then use_count + 1
 * and last_run_at = now (only after the search answered: a failed run is not counted).
 */
export async function runSavedSearch(identity: Identity, id: string): Promise<SavedSearchRun> {
  const db = identity.db;
  const saved = await getSavedSearch(db, id);
  const limit = config().PAGE_SIZE_DEFAULT;
  let run: SavedSearchRun;
  if (saved.kind === "search") {
    const p = SearchParamsSchema.parse(saved.params);
    const results = await mapSearchErrors(() =>
      searchDocuments(
        {
          q: saved.query,
          semantic_ratio: ratioOfMode(p.mode),
          filter: p.filter || undefined,
          filters: undefined,
          sort: p.sort || undefined,
          facets: undefined,
          limit,
          offset: 0,
        },
        identity,
      ),
    );
    run = { saved_search: saved, kind: "search", results };
  } else {
    const p = ExtractionsParamsSchema.parse(saved.params);
    const results = await filterDocuments(db, { filters: parseFilters(p.f), text_query: saved.query || p.q || null, limit, offset: 0 });
    run = { saved_search: saved, kind: "extractions", results };
  }
  const { data, error } = await db.rpc("mark_saved_search_run", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data[0]) run.saved_search = toSavedSearch(data[0]);
  return run;
}
