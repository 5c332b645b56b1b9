import { withRoute } from "@/lib/api/route";
import { blogAdminStats } from "@/lib/backend/content/blog";

export const dynamic = "force-dynamic";

/** GET /api/blog/admin/stats → {by_status: {draft, published, archived}, posts_per_month: [{month, count}], top_viewed}. */
export const GET = withRoute({ auth: "admin" }, async ({ db }) => blogAdminStats(db));
