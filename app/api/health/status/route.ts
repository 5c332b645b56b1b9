import { withRoute } from "@/lib/api/route";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthStatus } from "@/lib/backend/health/status";

export const dynamic = "force-dynamic";

export const GET = withRoute({ auth: "public" }, async () => healthStatus(defaultChecks()));
