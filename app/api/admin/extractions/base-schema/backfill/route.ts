import { withRoute } from "@/lib/api/route";
import { startBaseBackfill } from "@/lib/backend/extraction-jobs/jobs";
import { backfillRequest } from "@/lib/schema/requests/extraction-jobs";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/extractions/base-schema/backfill (admin) {limit?} → 202 a base-schema job over every judgment whose
 * base_extraction_status is pending, or the newest `limit` of them (200 with the one already queued or running; 422
 * EXTRACTION_NO_DOCUMENTS when none is pending).
 */
export const POST = withRoute({ auth: "admin", body: backfillRequest }, async ({ body, identity, serviceDb }) => {
  const { job, created } = await startBaseBackfill(serviceDb(), identity.userId as string, body.limit);
  return Response.json(job, { status: created ? 202 : 200 });
});
