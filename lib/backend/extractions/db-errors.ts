/**
 * The error of the collection code that is not a database mapping (filter errors are the request schema's,
 * lib/schema/filter-issues.ts). Database errors of
 * every RPC (our SQLSTATEs SF001-SF003, SC001-SC002 included) go through `fromDatabaseError` in lib/errors.
 */
import { ApiError } from "@/lib/errors";

// D-30: the same answer for a foreign id and one that does not exist; never which id.
export const collectionNotFound = () => new ApiError("COLLECTION_NOT_FOUND");
