import { withRoute } from "@/lib/api/route";
import { cancelExtractionJob } from "@/lib/backend/extraction-jobs/jobs";

export const dynamic = "force-dynamic";

/** POST /api/extractions/{job_id}/cancel: cooperative (documents under way finish, the rest are skipped). */
export const POST = withRoute({ auth: "user" }, async ({ params, db }) => cancelExtractionJob(db, params.id));
