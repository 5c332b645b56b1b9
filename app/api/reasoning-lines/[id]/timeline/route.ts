import { withRoute } from "@/lib/api/route";
import { lineId, lineTimeline } from "@/lib/backend/analysis/reasoning-lines";
import { LineReadQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/reasoning-lines/{id}/timeline: members by decision date with the line's events. */
export const GET = withRoute({ auth: "user", query: LineReadQuerySchema }, async ({ db, params, query }) =>
  lineTimeline(db, lineId(params.id), query.include_deleted === "true"),
);
