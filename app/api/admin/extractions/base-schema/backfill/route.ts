import { withRoute } from "@/lib/api/route";
import { startBaseBackfill } from "@/lib/backend/extraction-jobs/jobs";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/extractions/base-schema/backfill (admin) → 202 a base-schema job over every judgment whose
 * base_extraction_status is pending (200 with the one already queued or running; 409 when none is pending).
 */
export const POST = withRoute({ auth: "admin" }, async ({ identity, serviceDb }) => {
  const { job, created } = await startBaseBackfill(serviceDb(), identity.userId as string);
  return Response.json(job, { status: created ? 202 : 200 });
});
