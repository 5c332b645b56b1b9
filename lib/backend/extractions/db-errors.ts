/**
 * The two errors of the structured-search and collection code that are not database mappings. Database errors of
 * every RPC (our SQLSTATEs SF001-SF003, SC001-SC002 included) go through `fromDatabaseError` in lib/errors.
 */
import { ApiError } from "@/lib/errors";

export const filterInvalid = (field: string, message: string) => new ApiError("FILTER_INVALID", message, { field }); // D-06

// D-30: the same answer for a foreign id and one that does not exist; never which id.
export const collectionNotFound = () => new ApiError("COLLECTION_NOT_FOUND");
