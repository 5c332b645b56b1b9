import { withRoute } from "@/lib/api/route";
import { searchJudges } from "@/lib/backend/analysis/judges";
import { JudgeSearchQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/judge-fingerprint/search?q=&limit=: judge names containing q (≥ 2 characters; accents and case ignored). */
export const GET = withRoute({ auth: "user", query: JudgeSearchQuerySchema }, async ({ db, query }) => searchJudges(db, query.q, query.limit));
