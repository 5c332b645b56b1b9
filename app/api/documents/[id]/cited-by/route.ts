import { withRoute } from "@/lib/api/route";
import { CitedByQuery, documentCitedBy } from "@/lib/backend/citations";

export const dynamic = "force-dynamic";

/** GET /api/documents/{id}/cited-by?limit&offset: the judgments citing this one, newest first → {items, total}. */
export const GET = withRoute({ auth: "public", query: CitedByQuery }, async ({ params, query, identity }) =>
  documentCitedBy(params.id, query, identity),
);
