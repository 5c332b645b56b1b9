import { withRoute } from "@/lib/api/route";
import { trendsV1 } from "@/lib/backend/api-v1/account";

export const dynamic = "force-dynamic";

/** GET /api/v1/trends → {trends: {decisions_by_month, case_types_trend}}. */
export const GET = withRoute({ auth: "public", apiKey: "required" }, async ({ serviceDb }) => trendsV1(serviceDb()));
