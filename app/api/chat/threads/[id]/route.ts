import { withRoute } from "@/lib/api/route";
import { chatThreadId, deleteThread, getThread, RenameThreadBody, renameThread } from "@/lib/backend/assistants/threads";

export const dynamic = "force-dynamic";

/** GET /api/chat/threads/{id}: the caller's thread with its messages and their sources; else 404 (a foreign id too, D-30). */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => getThread(db, chatThreadId(params.id)));

/** PATCH /api/chat/threads/{id} {title}: rename. */
export const PATCH = withRoute({ auth: "user", body: RenameThreadBody }, async ({ params, body, db }) =>
  renameThread(db, chatThreadId(params.id), body.title),
);

/** DELETE /api/chat/threads/{id} → 204 (its messages go with it). */
export const DELETE = withRoute({ auth: "user" }, async ({ params, db }) => {
  await deleteThread(db, chatThreadId(params.id));
  return new Response(null, { status: 204 });
});
