/**
 * Edge checks of a BaseSchemaFilters object before it reaches SQL, in the order the spec's endpoints need them:
 * collection_ids refused by key presence on filter/aggregate (D-10), non-UUID collection ids on from-filter, then the
 * registry-derived schema (FILTER_INVALID naming the field, D-06).
 */
import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { BaseSchemaFiltersSchema, UUID_PATTERN, type BaseSchemaFilters } from "@/lib/schema/requests/structured";
import { filterInvalid } from "./db-errors";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The field an issue is about: the top-level key of its path, or the unknown key at the top level. */
function issueField(issue: z.core.$ZodIssue): string {
  if (issue.path.length) return String(issue.path[0]);
  if (issue.code === "unrecognized_keys" && issue.keys.length) return issue.keys[0];
  return "filters";
}

/** A valid filter object (absent or null = no filter) or 422 FILTER_INVALID naming the offending key. */
export function parseFilters(raw: unknown): BaseSchemaFilters {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw filterInvalid("filters", "filters must be a JSON object.");
  const parsed = BaseSchemaFiltersSchema.safeParse(raw);
  if (parsed.success) return raw;
  const issue = parsed.error.issues[0];
  const field = issueField(issue);
  const message =
    issue.code === "unrecognized_keys" && issue.path.length === 0
      ? `Unknown filter key "${field}".`
      : `Invalid value for filter "${field}": ${issue.message}.`;
  throw filterInvalid(field, message);
}

/** filter and aggregate have no collection ownership check, so the key is refused whatever its value (D-10). */
export function refuseCollectionIds(raw: unknown): void {
  if (isObject(raw) && Object.prototype.hasOwnProperty.call(raw, "collection_ids")) {
    throw new ApiError(400, "COLLECTION_IDS_NOT_ALLOWED", "collection_ids is not allowed in filters on this endpoint.");
  }
}

/** from-filter step 1: every collection_ids entry must be a UUID string, checked before anything is looked up. */
export function collectionIdsOf(raw: unknown): string[] {
  if (!isObject(raw) || !Object.prototype.hasOwnProperty.call(raw, "collection_ids")) return [];
  const ids = raw.collection_ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || !UUID_PATTERN.test(id))) {
    throw new ApiError(400, "INVALID_COLLECTION_ID", "collection_ids must be a list of collection UUIDs.");
  }
  return [...new Set((ids as string[]).map((id) => id.toLowerCase()))];
}
