import { withRoute } from "@/lib/api/route";
import { exportExtraction } from "@/lib/backend/extraction-jobs/export";
import { exportQuery } from "@/lib/schema/requests/extraction-jobs";

export const dynamic = "force-dynamic";

/** GET /api/extractions/{job_id}/export?format=csv|xlsx|jsonl: streamed, one row per document, one column per field. */
export const GET = withRoute({ auth: "user", query: exportQuery }, async ({ params, db, query }) => exportExtraction(db, params.id, query.format));
