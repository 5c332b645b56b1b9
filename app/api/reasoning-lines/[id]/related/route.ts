import { withRoute } from "@/lib/api/route";
import { lineId, relatedLines } from "@/lib/backend/analysis/reasoning-lines";
import { LineReadQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/reasoning-lines/{id}/related: lines sharing members or keywords, scored. */
export const GET = withRoute({ auth: "user", query: LineReadQuerySchema }, async ({ db, params, query }) =>
  relatedLines(db, lineId(params.id), query.include_deleted === "true"),
);
