import { withRoute } from "@/lib/api/route";
import { keyUser } from "@/lib/backend/api-v1/account";
import { compareCohorts } from "@/lib/backend/cohorts/compare";
import { CompareCohortsSchema } from "@/lib/schema/requests/cohorts";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cohorts/compare: the web route's compare for server callers. The service client reads the judgments;
 * a collection side is the key's user's own or 404 COLLECTION_NOT_FOUND, checked before its members are read.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: CompareCohortsSchema }, async ({ body, identity, serviceDb }) => {
  const usesCollection = body.a.collection_id !== undefined || body.b.collection_id !== undefined;
  return compareCohorts(serviceDb(), body, usesCollection ? { kind: "user", userId: keyUser(identity) } : { kind: "rls" });
});
