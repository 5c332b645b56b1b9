import { withRoute } from "@/lib/api/route";
import { driftAnalysis, engineEmbedder, lineParams } from "@/lib/backend/analysis/reasoning-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/{id}/drift-analysis (admin): the drift series; its drift events are persisted. */
export const POST = withRoute({ auth: "admin", quota: "reasoningWrites", params: lineParams }, async ({ db, identity, params }) =>
  driftAnalysis(db, identity, engineEmbedder(), params.id),
);
