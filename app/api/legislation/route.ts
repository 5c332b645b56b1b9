import { withRoute } from "@/lib/api/route";
import { LegislationLookupQuery, lookupLegislation } from "@/lib/backend/legislation";

export const dynamic = "force-dynamic";

/** GET /api/legislation?q=: provisions by what a researcher types ("279 § 1 kk", "theft act") → {results: [{id, name, count}]}. */
export const GET = withRoute({ auth: "public", query: LegislationLookupQuery }, async ({ query, identity }) => lookupLegislation(query, identity));
