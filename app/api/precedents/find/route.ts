import { withRoute } from "@/lib/api/route";
import { findPrecedents } from "@/lib/backend/assistants/precedents";
import { PrecedentsRequestSchema } from "@/lib/schema/requests/assistant-tools";

export const dynamic = "force-dynamic";

/** POST /api/precedents/find: hybrid retrieval, ranked by the model when one is configured; quota precedents. */
export const POST = withRoute({ auth: "user", body: PrecedentsRequestSchema, quota: "precedents" }, async ({ body, identity, req }) =>
  findPrecedents(body, identity, { signal: req.signal }),
);
