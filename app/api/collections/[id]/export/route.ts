import { withRoute } from "@/lib/api/route";
import { exportCollection, exportLocale } from "@/lib/backend/exports";
import { CollectionExportQuery } from "@/lib/schema/requests/exports";

export const dynamic = "force-dynamic";

/**
 * GET /api/collections/{id}/export?format=&headers=&preset=basic|citation|full: the members, newest first, streamed.
 * Another user's collection is a 404, as on every collection route.
 */
export const GET = withRoute({ auth: "user", query: CollectionExportQuery }, async ({ params, query, db, req }) =>
  exportCollection(db, params.id, query, exportLocale(req, query.lang)),
);
