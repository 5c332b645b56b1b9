import { withRoute } from "@/lib/api/route";
import { createCollection, listCollections } from "@/lib/backend/collections/collections";
import { CreateCollectionSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/collections → {collections, total}: the caller's own collections (RLS), newest first. */
export const GET = withRoute({ auth: "user" }, async ({ db }) => listCollections(db));

/** POST /api/collections {name, description?} → 201 the collection (document_count 0). */
export const POST = withRoute({ auth: "user", body: CreateCollectionSchema }, async ({ body, db }) =>
  Response.json(await createCollection(db, body.name, body.description), { status: 201 }),
);
