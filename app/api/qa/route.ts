import { withRoute } from "@/lib/api/route";
import { QaBody, questionAnswer } from "@/lib/backend/assistants/chat";

export const dynamic = "force-dynamic";

/** POST /api/qa {question, context_filters?}: {answer, confidence, sources, mode} over the chat's retrieval; nothing stored. */
export const POST = withRoute({ auth: "user", body: QaBody, quota: "chatMessages" }, async ({ body, req }) =>
  questionAnswer(body, {}, req.signal),
);
