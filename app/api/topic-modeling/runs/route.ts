import { withRoute } from "@/lib/api/route";
import { listTopicRuns } from "@/lib/backend/topics/runs";
import { TopicRunsQuerySchema } from "@/lib/schema/requests/topics";

export const dynamic = "force-dynamic";

/** GET /api/topic-modeling/runs?limit=&offset= → {runs, total, limit, offset, has_more}: the caller's runs, newest first. */
export const GET = withRoute({ auth: "user", query: TopicRunsQuerySchema }, async ({ db, query }) => listTopicRuns(db, query));
