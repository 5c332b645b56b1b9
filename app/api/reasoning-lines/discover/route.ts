import { withRoute } from "@/lib/api/route";
import { discoverLines, engineEmbedder } from "@/lib/backend/analysis/reasoning-lines";
import { DiscoverRequestSchema } from "@/lib/schema/requests/discover";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/discover: candidate lines (seeded k-means over the engine's vectors); stores nothing. */
export const POST = withRoute({ auth: "user", body: DiscoverRequestSchema, quota: "discover" }, async ({ db, body }) =>
  discoverLines(db, engineEmbedder(), body),
);
