import { withRoute } from "@/lib/api/route";
import { systemHealth } from "@/lib/backend/admin/stats";

export const dynamic = "force-dynamic";

/** GET /api/admin/system/health → health status, process uptime and memory, database and index size, syncs, jobs. */
export const GET = withRoute({ auth: "admin" }, async ({ serviceDb }) => systemHealth(serviceDb()));
