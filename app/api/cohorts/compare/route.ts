import { withRoute } from "@/lib/api/route";
import { compareCohorts } from "@/lib/backend/cohorts/compare";
import { CompareCohortsSchema } from "@/lib/schema/requests/cohorts";

export const dynamic = "force-dynamic";

/**
 * POST /api/cohorts/compare {a, b, fields, top_n?, seed?} (signed in): two cohorts, each a filter or one of the
 * caller's collections (another user's: 404 COLLECTION_NOT_FOUND), side by side with 95 % intervals of the differences.
 */
export const POST = withRoute({ auth: "user", body: CompareCohortsSchema }, async ({ body, db }) => compareCohorts(db, body));
