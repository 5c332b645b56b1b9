import { withRoute } from "@/lib/api/route";
import { analyzeOutcomes, lineId } from "@/lib/backend/analysis/reasoning-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/{id}/analyze-outcomes (admin): members' appeal outcomes by year; a model summary only when configured. */
export const POST = withRoute({ auth: "admin", quota: "reasoningWrites" }, async ({ db, params }) => analyzeOutcomes(db, lineId(params.id)));
