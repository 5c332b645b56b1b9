import { withRoute } from "@/lib/api/route";
import { AutocompleteQuery, autocomplete, mapSearchErrors, searchAnswerResponse } from "@/lib/backend/search";

export const dynamic = "force-dynamic";

/** GET /api/search/autocomplete: q, limit, and the filter expression as `filter` (canonical) or `filters` (D-01). */
export const GET = withRoute({ auth: "public", query: AutocompleteQuery }, async ({ query }) =>
  searchAnswerResponse(await mapSearchErrors(() => autocomplete(query))),
);
