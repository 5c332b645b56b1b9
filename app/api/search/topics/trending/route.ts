import { withRoute } from "@/lib/api/route";
import { getTrendingTopics } from "@/lib/backend/topics/service";
import { TrendingQuerySchema } from "@/lib/schema/requests/topics";

export const dynamic = "force-dynamic";

/** GET /api/search/topics/trending?limit=10 (public, D-16) → {run_id, computed_at, topics} ranked by trend and clicks. */
export const GET = withRoute({ auth: "public", query: TrendingQuerySchema }, async ({ db, query }) => getTrendingTopics(db, query.limit));
