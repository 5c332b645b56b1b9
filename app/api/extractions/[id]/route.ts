import { withRoute } from "@/lib/api/route";
import { deleteExtractionJob, getExtractionJob } from "@/lib/backend/extraction-jobs/jobs";

export const dynamic = "force-dynamic";

/** GET /api/extractions/{job_id} → {job_id, status, schema, progress {total, done, failed}, started_at, finished_at, error}. */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => getExtractionJob(db, params.id));

/** DELETE /api/extractions/{job_id} → 204; only a finished job (409 EXTRACTION_JOB_NOT_FINISHED otherwise). */
export const DELETE = withRoute({ auth: "user" }, async ({ params, db }) => {
  await deleteExtractionJob(db, params.id);
  return new Response(null, { status: 204 });
});
