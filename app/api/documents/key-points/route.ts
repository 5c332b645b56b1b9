import { withRoute } from "@/lib/api/route";
import { documentKeyPoints } from "@/lib/backend/assistants/document-helpers";
import { KeyPointsRequestSchema } from "@/lib/schema/requests/assistant-tools";

export const dynamic = "force-dynamic";

/** POST /api/documents/key-points: sentences of the judgment without a model, written by one with it. */
export const POST = withRoute({ auth: "user", body: KeyPointsRequestSchema, quota: "documentHelpers" }, async ({ body, identity, req }) =>
  documentKeyPoints(body, identity, { signal: req.signal }),
);
