import { withRoute } from "@/lib/api/route";
import { createLine, engineEmbedder } from "@/lib/backend/analysis/reasoning-lines";
import { CreateLineSchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/create (admin): a line from a candidate's members or from judgment ids → 201. */
export const POST = withRoute({ auth: "admin", body: CreateLineSchema, quota: "reasoningWrites" }, async ({ db, identity, body }) =>
  Response.json(await createLine(db, identity, engineEmbedder(), body), { status: 201 }),
);
