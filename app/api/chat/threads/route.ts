import { withRoute } from "@/lib/api/route";
import { listThreads, ThreadListQuery } from "@/lib/backend/assistants/threads";

export const dynamic = "force-dynamic";

/** GET /api/chat/threads?limit&offset: the caller's threads, most recently active first. */
export const GET = withRoute({ auth: "user", query: ThreadListQuery }, async ({ query, db }) => listThreads(db, query));
