/**
 * POST /collections/from-filter: save the cohort of a filter as a new collection, following the spec's step table in
 * order: collection ids are UUIDs (400 INVALID_COLLECTION_ID) → owned by the caller (404 COLLECTION_NOT_FOUND, never
 * which) → the filter is valid (422 FILTER_INVALID) → it matches something (400 FILTER_EMPTY) → not above the cap
 * (413 FILTER_TOO_LARGE) → created and filled.
 *
 * The last four steps are one SQL function, create_collection_from_filter (migration
 * 20260110000001_collection_from_filter.sql), so they are one transaction: a failure anywhere (a bad row, a time-out,
 * the connection or the process dying) leaves no collection and no member rows, and the matching ids never travel to
 * the app (L9). The function writes at most cap + 1 rows and counts the exact total only to refuse.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { collectionNotFound } from "@/lib/backend/extractions/db-errors";
import { collectionIdsOf } from "@/lib/schema/filters";
import type { FromFilterRequest } from "@/lib/schema/requests/structured";
import { countVisibleCollections, toCollection, type Collection } from "./collections";

export interface FromFilterResponse {
  collections: { jurisdiction: null; collection: Collection; added_count: number }[];
  total_matched: number;
  pair_id: null;
}

/** create_collection_from_filter answers jsonb: parsed (not cast) into the collection and the counts. */
const FromFilterRow = z.object({
  collection: z.unknown().transform(toCollection),
  added_count: z.number(),
  total_matched: z.number(),
});

export async function collectionFromFilter(db: DbClient, req: FromFilterRequest): Promise<FromFilterResponse> {
  const cap = config().SAVE_FROM_FILTER_MAX_DOCUMENTS;

  const collectionIds = collectionIdsOf(req.filters);
  if (collectionIds.length && (await countVisibleCollections(db, collectionIds)) !== collectionIds.length) {
    throw collectionNotFound();
  }
  const filters = req.filters;

  const { data, error } = await db.rpc("create_collection_from_filter", {
    p_name: req.name,
    p_description: req.description ?? null,
    p_filters: jsonArg(filters),
    p_text_query: req.text_query?.trim() || null,
    p_cap: cap,
  });
  if (error) {
    if (error.code === "SC003") throw new ApiError("FILTER_EMPTY", "The filter matches no judgments.");
    if (error.code === "SC004") {
      const total = Number(error.details);
      throw new ApiError("FILTER_TOO_LARGE", `The filter matches ${total} judgments; at most ${cap} can be saved.`, {
        total,
        cap,
        jurisdiction: null,
      });
    }
    throw fromDatabaseError(error);
  }
  const row = FromFilterRow.parse(data);
  return {
    collections: [{ jurisdiction: null, collection: row.collection, added_count: row.added_count }],
    total_matched: row.total_matched,
    pair_id: null,
  };
}
