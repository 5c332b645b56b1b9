import { withRoute } from "@/lib/api/route";
import { getTopicsMeta } from "@/lib/backend/topics/service";

export const dynamic = "force-dynamic";

/** GET /api/search/topics/meta (public, D-16) → {run_id, computed_at, topic_count, document_count} of the topics index. */
export const GET = withRoute({ auth: "public" }, async () => getTopicsMeta());
