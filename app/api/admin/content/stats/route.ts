import { withRoute } from "@/lib/api/route";
import { contentStats } from "@/lib/backend/content/stats";

export const dynamic = "force-dynamic";

/** GET /api/admin/content/stats → blog and publication (and contact message) counts by status. */
export const GET = withRoute({ auth: "admin" }, async ({ db }) => contentStats(db));
