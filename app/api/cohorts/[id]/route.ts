import { withRoute } from "@/lib/api/route";
import { cohortId, getCohort } from "@/lib/backend/cohorts/citations";

export const dynamic = "force-dynamic";

/**
 * GET /api/cohorts/{id}: a cited cohort, readable by anyone with the link (public allowlist), with the same filter run
 * now and what changed since; 404 COHORT_NOT_FOUND otherwise.
 */
export const GET = withRoute({ auth: "public", params: (raw) => ({ id: cohortId(raw.id) }) }, async ({ params, serviceDb }) =>
  getCohort(serviceDb(), params.id),
);
