import { deleteSearchHistoryEntry } from "@/lib/backend/search-analytics";
import { ApiError, withRoute } from "@/lib/api/route";
import { isUuid } from "@/lib/schema/uuid";

export const dynamic = "force-dynamic";

const entryId = (raw: Record<string, string>) => {
  if (!isUuid(raw.id)) throw new ApiError("SEARCH_HISTORY_ENTRY_NOT_FOUND");
  return { id: raw.id };
};

/** DELETE /api/search/analytics/history/{id} → 204: one of the caller's own searches (another user's id: 404). */
export const DELETE = withRoute({ auth: "user", params: entryId }, async ({ params, db }) => {
  await deleteSearchHistoryEntry(db, params.id);
  return new Response(null, { status: 204 });
});
