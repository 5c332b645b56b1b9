import { withRoute } from "@/lib/api/route";
import { createCollection, listCollections } from "@/lib/backend/collections/collections";
import { CreateCollectionSchema, PageQuerySchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * GET /api/collections?limit=&offset= → {collections, total, limit, offset, has_more}: the caller's own collections
 * (RLS), newest first; limit default 20, max 100, offset 0 (R-LIM-028, R-END-151).
 */
export const GET = withRoute({ auth: "user", query: PageQuerySchema }, async ({ db, query }) => listCollections(db, query));

/**
 * POST /api/collections {name, description?, document_ids?, tags?} → 201 the collection (R-END-142). Unknown document
 * ids are 404 DOCUMENT_NOT_FOUND and nothing is created.
 */
export const POST = withRoute({ auth: "user", body: CreateCollectionSchema }, async ({ body, db }) =>
  Response.json(await createCollection(db, body.name, body.description, { tags: body.tags, documentIds: body.document_ids }), {
    status: 201,
  }),
);
