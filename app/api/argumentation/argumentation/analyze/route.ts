import { withRoute } from "@/lib/api/route";
import { analyzeArgumentation } from "@/lib/backend/assistants/argumentation";
import { ArgumentationRequestSchema } from "@/lib/schema/requests/assistant-tools";

export const dynamic = "force-dynamic";

/** POST /api/argumentation/argumentation/analyze: 1-5 judgments, rules or model; quota argumentation. */
export const POST = withRoute({ auth: "user", body: ArgumentationRequestSchema, quota: "argumentation" }, async ({ body, identity, req }) =>
  analyzeArgumentation(body, identity, { signal: req.signal }),
);
