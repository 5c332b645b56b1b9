import { withRoute } from "@/lib/api/route";
import { deleteSavedSearch, getSavedSearch, savedSearchId, updateSavedSearch } from "@/lib/backend/saved-searches/saved-searches";
import { PatchSavedSearchSchema } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/** GET /api/saved-searches/{id}: the caller's saved search, else 404 SAVED_SEARCH_NOT_FOUND (a foreign id too, D-30). */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => getSavedSearch(db, savedSearchId(params.id)));

/** PATCH /api/saved-searches/{id} {name?, query?, params?, folder?, alert?: {enabled?, frequency?}}. */
export const PATCH = withRoute({ auth: "user", body: PatchSavedSearchSchema }, async ({ params, body, db }) =>
  updateSavedSearch(db, savedSearchId(params.id), body),
);

/** DELETE /api/saved-searches/{id} → 204. */
export const DELETE = withRoute({ auth: "user" }, async ({ params, db }) => {
  await deleteSavedSearch(db, savedSearchId(params.id));
  return new Response(null, { status: 204 });
});
