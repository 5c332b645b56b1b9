import { withRoute } from "@/lib/api/route";
import { addDocuments, collectionId } from "@/lib/backend/collections/collections";
import { DocumentIdsSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** POST /api/collections/{id}/documents/batch {document_ids: 1..MAX_BATCH_DOCUMENT_IDS} → {added_count, requested}. */
export const POST = withRoute({ auth: "user", body: DocumentIdsSchema }, async ({ params, body, db }) => ({
  added_count: await addDocuments(db, collectionId(params.id), body.document_ids),
  requested: new Set(body.document_ids).size,
}));
