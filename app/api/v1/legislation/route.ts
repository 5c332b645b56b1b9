import { withRoute } from "@/lib/api/route";
import { LegislationLookupQuery, lookupLegislation } from "@/lib/backend/legislation";

export const dynamic = "force-dynamic";

/** GET /api/v1/legislation?q=: provisions by text (as /api/legislation), for API-key holders. */
export const GET = withRoute({ auth: "public", apiKey: "required", query: LegislationLookupQuery }, async ({ query, identity }) => lookupLegislation(query, identity));
