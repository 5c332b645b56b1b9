import { withRoute } from "@/lib/api/route";
import { judgeProfile } from "@/lib/backend/analysis/judges";

export const dynamic = "force-dynamic";

/** GET /api/judge-fingerprint/profile/{name}: record, reasoning styles with evidence, outcomes and sentences; 404 for an unknown judge. */
export const GET = withRoute({ auth: "user" }, async ({ db, params, serviceDb }) =>
  judgeProfile(db, params.name ?? "", serviceDb()),
);
