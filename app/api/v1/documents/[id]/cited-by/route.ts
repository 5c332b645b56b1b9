import { withRoute } from "@/lib/api/route";
import { CitedByQuery, documentCitedBy } from "@/lib/backend/citations";

export const dynamic = "force-dynamic";

/** GET /api/v1/documents/{id}/cited-by: the judgments citing a judgment, filtered, sorted and paged (as /api/documents/{id}/cited-by). */
export const GET = withRoute({ auth: "public", apiKey: "required", query: CitedByQuery }, async ({ params, query, identity }) =>
  documentCitedBy(params.id, query, identity),
);
