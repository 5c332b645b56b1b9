import { after } from "next/server";
import { withRoute } from "@/lib/api/route";
import { AutocompleteQuery, autocomplete, mapSearchErrors, searchAnswerResponse } from "@/lib/backend/search";
import { autocompleteRecord, queueSearchRecord } from "@/lib/backend/search-analytics";

export const dynamic = "force-dynamic";

/**
 * GET /api/search/autocomplete: q, limit, and the filter expression as `filter` (canonical) or `filters` (D-01).
 * Each non-empty query is queued as a search_analytics row (mode "autocomplete"), attributed to the bearer's user
 * when there is one (R-VER-007), written after the answer is sent.
 */
export const GET = withRoute({ auth: "public", query: AutocompleteQuery }, async ({ query, identity, serviceDb }) => {
  const result = await mapSearchErrors(() => autocomplete(query));
  const record = autocompleteRecord(result, identity.userId);
  if (record) after(() => queueSearchRecord(serviceDb, record));
  return searchAnswerResponse(result);
});
