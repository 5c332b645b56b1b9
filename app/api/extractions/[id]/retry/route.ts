import { withRoute } from "@/lib/api/route";
import { retryExtractionJob } from "@/lib/backend/extraction-jobs/jobs";

export const dynamic = "force-dynamic";

/** POST /api/extractions/{job_id}/retry: re-runs only the failed documents of a finished job (202, queued again). */
export const POST = withRoute({ auth: "user", quota: "extractionSubmissions" }, async ({ params, db }) =>
  Response.json(await retryExtractionJob(db, params.id), { status: 202 }),
);
