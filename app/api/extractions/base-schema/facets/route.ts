import { withRoute } from "@/lib/api/route";
import { facetValues } from "@/lib/backend/extractions/facets";
import { config } from "@/lib/config";
import { FacetsQuerySchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/extractions/base-schema/facets?field=&q=&limit=&filters=&text_query= (signed in; private 60 s cache). */
export const GET = withRoute({ auth: "user", query: FacetsQuerySchema }, async ({ query, db }) =>
  Response.json(await facetValues(db, query), {
    headers: { "Cache-Control": `private, max-age=${config().FACET_CACHE_SECONDS}` },
  }),
);
