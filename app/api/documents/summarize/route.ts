import { withRoute } from "@/lib/api/route";
import { summarizeDocuments } from "@/lib/backend/assistants/document-helpers";
import { SummarizeRequestSchema } from "@/lib/schema/requests/assistant-tools";

export const dynamic = "force-dynamic";

/** POST /api/documents/summarize: TextRank sentences without a model, abstractive with one. */
export const POST = withRoute({ auth: "user", body: SummarizeRequestSchema, quota: "documentHelpers" }, async ({ body, identity, req }) =>
  summarizeDocuments(body, identity, { signal: req.signal }),
);
