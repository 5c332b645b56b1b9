import { withRoute } from "@/lib/api/route";
import { exportExtractionRows, exportLocale } from "@/lib/backend/exports";
import { ExtractionRowsExportQuery } from "@/lib/schema/requests/exports";

export const dynamic = "force-dynamic";

/**
 * GET /api/extractions/base-schema/export?filters=<json>&text_query=&format=&headers=: the cohort the filter route
 * pages (same order), one column per extracted field, up to 10,000 rows, streamed. Signed-in, as the filter route.
 */
export const GET = withRoute({ auth: "user", query: ExtractionRowsExportQuery }, async ({ query, db, req }) =>
  exportExtractionRows(db, query, exportLocale(req, query.lang)),
);
