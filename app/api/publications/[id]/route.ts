import { withRoute } from "@/lib/api/route";
import { deletePublication, getPublication, patchPublication, publicationId } from "@/lib/backend/content/publications";
import { PatchPublicationSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/** GET /api/publications/{id} → the record (drafts: admins only); 404 PUBLICATION_NOT_FOUND. */
export const GET = withRoute({ auth: "public" }, async ({ db, identity, params }) => getPublication(db, identity, publicationId(params.id)));

/** PATCH /api/publications/{id} (admin). */
export const PATCH = withRoute({ auth: "admin", body: PatchPublicationSchema }, async ({ db, identity, params, body }) =>
  patchPublication(db, identity, publicationId(params.id), body),
);

/** DELETE /api/publications/{id} (admin) → 204. */
export const DELETE = withRoute({ auth: "admin" }, async ({ db, identity, params }) => {
  await deletePublication(db, identity, publicationId(params.id));
  return new Response(null, { status: 204 });
});
