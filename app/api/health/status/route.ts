import { withRoute } from "@/lib/api/route";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthForCaller, healthStatus } from "@/lib/backend/health/status";

export const dynamic = "force-dynamic";

/** Public; dependency error messages only for signed-in admins (L5). */
export const GET = withRoute({ auth: "public" }, async ({ identity }) => healthForCaller(await healthStatus(defaultChecks()), identity.role));
