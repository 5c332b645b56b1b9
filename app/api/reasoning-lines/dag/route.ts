import { withRoute } from "@/lib/api/route";
import { linesDag } from "@/lib/backend/analysis/reasoning-lines";

export const dynamic = "force-dynamic";

/** GET /api/reasoning-lines/dag (a static segment, so it is matched before /{id}): lines as nodes, edges older → newer. */
export const GET = withRoute({ auth: "user" }, async ({ db }) => linesDag(db));
