import { withRoute } from "@/lib/api/route";
import { statisticsV1 } from "@/lib/backend/api-v1/account";
import { V1StatisticsQuery } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** GET /api/v1/statistics?jurisdiction=&date_from=&date_to= (popular queries only above a minimum count). */
export const GET = withRoute({ auth: "public", apiKey: "required", query: V1StatisticsQuery }, async ({ query, serviceDb }) => statisticsV1(serviceDb(), query));
