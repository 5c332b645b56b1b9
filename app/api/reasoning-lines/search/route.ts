import { withRoute } from "@/lib/api/route";
import { searchLines } from "@/lib/backend/analysis/reasoning-lines";
import { SearchLinesSchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** POST /api/reasoning-lines/search {q}: over labels, keywords, legal questions and members' case numbers. */
export const POST = withRoute({ auth: "user", body: SearchLinesSchema }, async ({ db, body }) => searchLines(db, body.q));
