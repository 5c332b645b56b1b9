import { withRoute } from "@/lib/api/route";
import { refreshDashboardAsAdmin } from "@/lib/backend/dashboard";

export const dynamic = "force-dynamic";

/** POST /api/dashboard/refresh (admin; QUOTA_DASHBOARD_REFRESH_PER_HOUR, 2 by default → 429): recompute the row now. */
export const POST = withRoute({ auth: "admin", quota: "dashboardRefresh" }, async ({ serviceDb, identity }) =>
  refreshDashboardAsAdmin(serviceDb(), identity),
);
