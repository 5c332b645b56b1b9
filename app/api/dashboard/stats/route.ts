import { withRoute } from "@/lib/api/route";
import { getDashboardStats } from "@/lib/backend/dashboard";

export const dynamic = "force-dynamic";

/** GET /api/dashboard/stats (public): the precomputed statistics row (one primary-key read). */
export const GET = withRoute({ auth: "public" }, async ({ db, serviceDb }) => getDashboardStats(db, serviceDb));
