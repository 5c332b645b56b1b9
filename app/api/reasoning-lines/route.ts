import { withRoute } from "@/lib/api/route";
import { listLines } from "@/lib/backend/analysis/reasoning-lines";
import { ListLinesQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/reasoning-lines/?page=&limit=&include_deleted=: newest first; deleted lines only for admins who ask. */
export const GET = withRoute({ auth: "user", query: ListLinesQuerySchema }, async ({ db, query }) =>
  listLines(db, { page: query.page, limit: query.limit, includeDeleted: query.include_deleted === "true" }),
);
