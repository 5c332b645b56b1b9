import { withRoute } from "@/lib/api/route";
import { detectEvents, engineEmbedder } from "@/lib/backend/analysis/reasoning-lines";
import { DetectEventsSchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/detect-events (admin): drift, reversal, new-member and merge events, persisted once each. */
export const POST = withRoute({ auth: "admin", body: DetectEventsSchema, quota: "reasoningWrites" }, async ({ db, identity, body }) =>
  detectEvents(db, identity, engineEmbedder(), body.line_ids),
);
