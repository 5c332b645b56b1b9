/**
 * Map errors of the structured-search and collection RPCs to API errors. The SQL raises its own SQLSTATEs with the
 * offending field in DETAIL (supabase/migrations/20260103000200_structured_search.sql, 20260103000100_collections.sql);
 * anything else goes through the generic mapping, so SQL text never reaches a client.
 */
import { ApiError, fromPostgrestError } from "@/lib/api/errors";

export interface RpcError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

export const filterInvalid = (field: string, message: string) =>
  new ApiError(422, "FILTER_INVALID", message, { field }); // D-06

export const collectionNotFound = () =>
  // D-30: the same answer for a foreign id and one that does not exist; never which id.
  new ApiError(404, "COLLECTION_NOT_FOUND", "Collection not found.");

export function rpcError(err: RpcError, fallbackCode = "DATABASE_ERROR"): ApiError {
  const field = err.details ?? "";
  switch (err.code) {
    case "SF001":
      return filterInvalid(field, err.message ?? "Invalid filter.");
    case "SF002":
      return new ApiError(422, "FIELD_NOT_AGGREGABLE", err.message ?? "Field is not aggregable.", { field });
    case "SF003":
    case "22023":
      return new ApiError(422, "VALIDATION_ERROR", err.message ?? "Invalid request.", { fields: [{ field, message: err.message ?? "" }] });
    case "SC001":
      return collectionNotFound();
    case "SC002":
      return new ApiError(404, "DOCUMENT_NOT_FOUND", "Some documents do not exist.", { document_ids: field ? field.split(",") : [] });
    default:
      return fromPostgrestError(err, fallbackCode);
  }
}
