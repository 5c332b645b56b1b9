import { withRoute } from "@/lib/api/route";
import { analyzeOutcomes, lineParams } from "@/lib/backend/analysis/reasoning-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/{id}/analyze-outcomes (admin): members' appeal outcomes by year; a model summary only when configured. */
export const POST = withRoute({ auth: "admin", quota: "reasoningWrites", params: lineParams }, async ({ db, params }) =>
  analyzeOutcomes(db, params.id),
);
