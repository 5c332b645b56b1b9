import { withRoute } from "@/lib/api/route";
import { ApiError } from "@/lib/errors";
import { getTopicRun } from "@/lib/backend/topics/runs";
import { isUuid } from "@/lib/schema/uuid";

export const dynamic = "force-dynamic";

/**
 * GET /api/topic-modeling/runs/{run_id} → the stored run (the analyze body plus created_at). Owner only: another
 * user's run and an unknown or malformed id are the same 404 TOPIC_RUN_NOT_FOUND (D-30); a non-UUID never reaches the
 * database.
 */
export const GET = withRoute({ auth: "user" }, async ({ db, params }) => {
  if (!isUuid(params.id)) throw new ApiError("TOPIC_RUN_NOT_FOUND");
  return getTopicRun(db, params.id.toLowerCase());
});
