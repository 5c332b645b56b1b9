import { withRoute } from "@/lib/api/route";
import { exportLocale, exportSearch, SearchExportQuery } from "@/lib/backend/exports";
import { mapSearchErrors } from "@/lib/backend/search";

export const dynamic = "force-dynamic";

/**
 * GET /api/search/export?q=…&format=csv|xlsx|jsonl&headers=labels|codes (and the search route's filter, filters, sort,
 * semantic_ratio): the results in the engine's order, up to the 1,000 it counts, streamed. Signed-in only: a guest's
 * searches are metered one page at a time, and one export reads up to ten pages. Held to the search rate limit.
 */
export const GET = withRoute({ auth: "user", query: SearchExportQuery, rateLimit: "search" }, async ({ query, identity, req }) =>
  mapSearchErrors(() => exportSearch(query, identity, exportLocale(req, query.lang))),
);
