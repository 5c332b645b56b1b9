import { withRoute } from "@/lib/api/route";
import { addDocuments, collectionId, listCollectionDocuments, removeDocuments } from "@/lib/backend/collections/collections";
import { AddDocumentSchema, DocumentIdsSchema, PageQuerySchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/collections/{id}/documents?limit=&offset= → {documents, total, limit, offset, has_more}, newest first. */
export const GET = withRoute({ auth: "user", query: PageQuerySchema }, async ({ params, query, db }) =>
  listCollectionDocuments(db, collectionId(params.id), query.limit, query.offset),
);

/** POST /api/collections/{id}/documents {document_id} → {added_count} (an existing pair is kept: upsert). */
export const POST = withRoute({ auth: "user", body: AddDocumentSchema }, async ({ params, body, db }) => ({
  added_count: await addDocuments(db, collectionId(params.id), [body.document_id]),
}));

/** DELETE /api/collections/{id}/documents {document_ids} → {removed_count}. */
export const DELETE = withRoute({ auth: "user", body: DocumentIdsSchema }, async ({ params, body, db }) => ({
  removed_count: await removeDocuments(db, collectionId(params.id), body.document_ids),
}));
