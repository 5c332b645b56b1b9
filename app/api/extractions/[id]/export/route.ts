import { withRoute } from "@/lib/api/route";
import { exportLocale } from "@/lib/backend/exports";
import { exportExtraction } from "@/lib/backend/extraction-jobs/export";
import { JobExportQuery } from "@/lib/schema/requests/exports";

export const dynamic = "force-dynamic";

/** GET /api/extractions/{job_id}/export?format=csv|xlsx|jsonl&headers=codes|labels: streamed, one row per document, one column per field. */
export const GET = withRoute({ auth: "user", query: JobExportQuery }, async ({ params, db, query, req }) =>
  exportExtraction(db, params.id, query.format, query.headers, exportLocale(req, query.lang)),
);
