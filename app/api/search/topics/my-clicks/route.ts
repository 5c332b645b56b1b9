import { withRoute } from "@/lib/api/route";
import { getMyTopicClicks } from "@/lib/backend/topics/service";
import { MyClicksQuerySchema } from "@/lib/schema/requests/topics";

export const dynamic = "force-dynamic";

/** GET /api/search/topics/my-clicks?limit= (signed in) → {clicks}: the caller's own topic clicks, newest first. */
export const GET = withRoute({ auth: "user", query: MyClicksQuerySchema }, async ({ db, query }) => getMyTopicClicks(db, query.limit));
