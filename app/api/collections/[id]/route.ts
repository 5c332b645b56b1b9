import { withRoute } from "@/lib/api/route";
import { collectionId, deleteCollection, getCollectionWithDocuments, updateCollection } from "@/lib/backend/collections/collections";
import { PatchCollectionSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * GET /api/collections/{id}: the caller's collection plus its newest 20 members as documents[{id, case_number, title,
 * added_at}] (R-END-143; the rest via /documents?offset=), else 404 COLLECTION_NOT_FOUND (a foreign id too, D-30).
 */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => getCollectionWithDocuments(db, collectionId(params.id)));

/** PATCH /api/collections/{id} {name?, description?} (description null clears it). */
export const PATCH = withRoute({ auth: "user", body: PatchCollectionSchema }, async ({ params, body, db }) =>
  updateCollection(db, collectionId(params.id), body),
);

/** DELETE /api/collections/{id} → 204. */
export const DELETE = withRoute({ auth: "user" }, async ({ params, db }) => {
  await deleteCollection(db, collectionId(params.id));
  return new Response(null, { status: 204 });
});
