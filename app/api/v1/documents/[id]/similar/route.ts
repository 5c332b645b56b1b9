import { withRoute } from "@/lib/api/route";
import { similarV1 } from "@/lib/backend/api-v1/documents";
import { V1SimilarBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/documents/{id}/similar {limit} → {results: [{id, case_number, title, similarity}], total}. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1SimilarBody }, async ({ params, body }) => similarV1(params.id, body));
