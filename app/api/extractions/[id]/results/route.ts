import { withRoute } from "@/lib/api/route";
import { listExtractionResults } from "@/lib/backend/extraction-jobs/jobs";
import { resultsQuery } from "@/lib/schema/requests/extraction-jobs";

export const dynamic = "force-dynamic";

/** GET /api/extractions/{job_id}/results?page=&status= → {fields, results: [{document_id, status, values, error, …}], total}. */
export const GET = withRoute({ auth: "user", query: resultsQuery }, async ({ params, db, query }) => listExtractionResults(db, params.id, query));
