import { withRoute } from "@/lib/api/route";
import { deleteLine, getLine, lineId, lineParams } from "@/lib/backend/analysis/reasoning-lines";
import { LineReadQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/reasoning-lines/{id}: the line, its members by date and its events (a non-UUID id: 404, no database call). */
export const GET = withRoute({ auth: "user", query: LineReadQuerySchema }, async ({ db, params, query }) =>
  getLine(db, lineId(params.id), query.include_deleted === "true"),
);

/** DELETE /api/reasoning-lines/{id} (admin): status → deleted; members and events are kept. */
export const DELETE = withRoute({ auth: "admin", quota: "reasoningWrites", params: lineParams }, async ({ db, identity, params }) =>
  deleteLine(db, identity, params.id),
);
