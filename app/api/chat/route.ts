import { withRoute } from "@/lib/api/route";
import { ChatBody, chatAnswer, chatEventStream, prepareChat } from "@/lib/backend/assistants/chat";

export const dynamic = "force-dynamic";

/**
 * POST /api/chat {message, thread_id?, filters?, jurisdiction?, stream?}: an answer over retrieved judgment passages,
 * streamed as server-sent events (token, sources, done) or, with stream: false, as one JSON object. Signed in; counts
 * against the hourly chatMessages quota.
 */
export const POST = withRoute({ auth: "user", body: ChatBody, quota: "chatMessages" }, async ({ body, identity, db, serviceDb }) => {
  const deps = { db, serviceDb, userId: identity.userId as string };
  const prepared = await prepareChat(body, deps);
  return body.stream ? chatEventStream(prepared, deps) : chatAnswer(prepared, deps);
});
