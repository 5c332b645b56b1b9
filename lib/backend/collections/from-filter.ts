/**
 * POST /collections/from-filter: save the cohort of a filter as a new collection, following the spec's step table in
 * order: collection ids are UUIDs (400 INVALID_COLLECTION_ID) → owned by the caller (404 COLLECTION_NOT_FOUND, never
 * which) → the filter is valid (422 FILTER_INVALID) → it matches something (400 FILTER_EMPTY) → not above the cap
 * (413 FILTER_TOO_LARGE) → create and add in chunks; if a chunk fails the new collection is deleted (best effort,
 * logged) and the chunk's error is returned.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { collectionNotFound, rpcError } from "@/lib/backend/extractions/db-errors";
import { collectionIdsOf, parseFilters } from "@/lib/backend/extractions/filters";
import type { FromFilterRequest } from "@/lib/schema/requests/structured";
import { addDocuments, countVisibleCollections, createCollection, deleteCollection, getCollection, type Collection } from "./collections";

export interface FromFilterResponse {
  collections: { jurisdiction: null; collection: Collection; added_count: number }[];
  total_matched: number;
  pair_id: null;
}

/** Chunked add, as its own step so a failure can be injected in tests of the rollback path. */
export type AddChunk = (db: SupabaseClient, collectionId: string, ids: string[]) => Promise<number>;

export async function collectionFromFilter(
  db: SupabaseClient,
  req: FromFilterRequest,
  opts: { addChunk?: AddChunk } = {},
): Promise<FromFilterResponse> {
  const { SAVE_FROM_FILTER_MAX_DOCUMENTS: cap, BULK_ADD_CHUNK_SIZE: chunkSize } = config();

  const collectionIds = collectionIdsOf(req.filters);
  if (collectionIds.length && (await countVisibleCollections(db, collectionIds)) !== collectionIds.length) {
    throw collectionNotFound();
  }
  const filters = parseFilters(req.filters);

  const { data, error } = await db.rpc("list_extracted_filter_matches", {
    p_filters: filters,
    p_text_query: req.text_query?.trim() || null,
  });
  if (error) throw rpcError(error);
  const ids = ((data ?? []) as { id: string }[]).map((r) => r.id);
  if (ids.length === 0) throw new ApiError(400, "FILTER_EMPTY", "The filter matches no judgments.");
  if (ids.length > cap) {
    throw new ApiError(413, "FILTER_TOO_LARGE", `The filter matches ${ids.length} judgments; at most ${cap} can be saved.`, {
      total: ids.length,
      cap,
      jurisdiction: null,
    });
  }

  const created = await createCollection(db, req.name, req.description);
  const addChunk = opts.addChunk ?? addDocuments;
  let added = 0;
  try {
    for (let i = 0; i < ids.length; i += chunkSize) added += await addChunk(db, created.id, ids.slice(i, i + chunkSize));
  } catch (original) {
    try {
      await deleteCollection(db, created.id);
    } catch (cleanup) {
      logger.error(
        { collectionId: created.id, err: cleanup instanceof Error ? cleanup.message : String(cleanup) },
        "from-filter: could not delete the partly filled collection",
      );
    }
    throw original;
  }
  const collection = await getCollection(db, created.id);
  return { collections: [{ jurisdiction: null, collection, added_count: added }], total_matched: ids.length, pair_id: null };
}
