import { withRoute } from "@/lib/api/route";
import { createExtractionJob, listExtractionJobs } from "@/lib/backend/extraction-jobs/jobs";
import { createExtractionRequest, listJobsQuery } from "@/lib/schema/requests/extraction-jobs";

export const dynamic = "force-dynamic";

/**
 * POST /api/extractions {schema_id | "base", collection_id | document_ids, idempotency_key?} → 202 the job (queued);
 * the same idempotency key within 24 h answers the first job (200). 10 submissions a minute; 409
 * EXTRACTION_RUNNING_LIMIT with 3 jobs queued or running (P-47).
 */
// 256 KB: 5,000 document ids (≈ 39 bytes each as JSON) fit; the default cap would refuse a full job.
export const POST = withRoute({ auth: "user", body: createExtractionRequest(), quota: "extractionSubmissions", maxBodyBytes: 256 * 1024 }, async ({ body, db }) => {
  const { job, created } = await createExtractionJob(db, body);
  return Response.json(job, { status: created ? 202 : 200 });
});

/** GET /api/extractions?status=&page=&page_size= → the caller's jobs, newest first. */
export const GET = withRoute({ auth: "user", query: listJobsQuery }, async ({ db, query }) => listExtractionJobs(db, query));
