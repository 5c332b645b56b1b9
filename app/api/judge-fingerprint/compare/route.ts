import { withRoute } from "@/lib/api/route";
import { compareJudges } from "@/lib/backend/analysis/judges";
import { JudgeCompareQuerySchema } from "@/lib/schema/requests/analysis-lines";

export const dynamic = "force-dynamic";

/** GET /api/judge-fingerprint/compare?judges=A,B[,C]: 2-3 profiles side by side (else 422); hourly quota judgeCompare. */
export const GET = withRoute({ auth: "user", query: JudgeCompareQuerySchema, quota: "judgeCompare" }, async ({ db, query, serviceDb }) =>
  compareJudges(db, query.judges, serviceDb()),
);
