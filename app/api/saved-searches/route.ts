import { withRoute } from "@/lib/api/route";
import { createSavedSearch, listSavedSearches } from "@/lib/backend/saved-searches/saved-searches";
import { CreateSavedSearchSchema, SavedSearchListQuery } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/** GET /api/saved-searches?folder=&page=&limit= → the caller's saved searches, newest first, and their folders. */
export const GET = withRoute({ auth: "user", query: SavedSearchListQuery }, async ({ db, query }) => listSavedSearches(db, query));

/**
 * POST /api/saved-searches {name, kind, query?, params?, folder?, alert?} → 201. The stored filter is validated like
 * any filter (422 FILTER_INVALID, nothing stored); past SAVED_SEARCHES_MAX_PER_USER → 409 SAVED_SEARCH_LIMIT.
 */
export const POST = withRoute({ auth: "user", body: CreateSavedSearchSchema }, async ({ db, body }) =>
  Response.json(await createSavedSearch(db, body), { status: 201 }),
);
