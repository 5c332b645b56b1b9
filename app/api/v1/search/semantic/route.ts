import { withRoute } from "@/lib/api/route";
import { semanticV1 } from "@/lib/backend/api-v1/documents";
import { V1SemanticBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/search/semantic {query, limit, min_similarity, filters}. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1SemanticBody }, async ({ body, identity }) => semanticV1(body, identity));
