/**
 * Edge checks of a BaseSchemaFilters object before it reaches SQL, in the order the spec's endpoints need them:
 * collection_ids refused by key presence on filter/aggregate (D-10), non-UUID collection ids on from-filter, then the
 * registry-derived schema (FILTER_INVALID naming the field, D-06).
 */
import { ApiError } from "@/lib/errors";
import { validateFilters, type BaseSchemaFilters } from "@/lib/schema/filters";
import { isUuid } from "@/lib/schema/uuid";
import { filterInvalid } from "./db-errors";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A valid filter object (absent or null = no filter) or 422 FILTER_INVALID naming the offending key. The one server
 * parser (lib/schema/filters.ts) behind every path that takes a filter object, search included.
 */
export function parseFilters(raw: unknown): BaseSchemaFilters {
  const r = validateFilters(raw);
  if (!r.ok) throw filterInvalid(r.issue.field, r.issue.message);
  return r.filters;
}

/** filter and aggregate have no collection ownership check, so the key is refused whatever its value (D-10). */
export function refuseCollectionIds(raw: unknown): void {
  if (isObject(raw) && Object.prototype.hasOwnProperty.call(raw, "collection_ids")) {
    throw new ApiError("COLLECTION_IDS_NOT_ALLOWED", "collection_ids is not allowed in filters on this endpoint.");
  }
}

/** from-filter step 1: every collection_ids entry must be a UUID string, checked before anything is looked up. */
export function collectionIdsOf(raw: unknown): string[] {
  if (!isObject(raw) || !Object.prototype.hasOwnProperty.call(raw, "collection_ids")) return [];
  const ids = raw.collection_ids;
  if (!Array.isArray(ids) || ids.some((id) => !isUuid(id))) {
    throw new ApiError("INVALID_COLLECTION_ID", "collection_ids must be a list of collection UUIDs.");
  }
  return [...new Set((ids as string[]).map((id) => id.toLowerCase()))];
}
