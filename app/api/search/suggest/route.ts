import { withRoute } from "@/lib/api/route";
import { SuggestQuery, mapSearchErrors, suggest } from "@/lib/backend/search";

export const dynamic = "force-dynamic";

/** GET /api/search/suggest: typeahead phrases mined from the corpus. */
export const GET = withRoute({ auth: "public", query: SuggestQuery }, async ({ query }) =>
  mapSearchErrors(() => suggest(query)),
);
