import { withRoute } from "@/lib/api/route";
import { facetsV1 } from "@/lib/backend/api-v1/documents";
import { V1FacetsBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/search/facets {filters} → {facets: {jurisdiction, court_level, case_type, year}, total}. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1FacetsBody }, async ({ body, serviceDb }) => facetsV1(serviceDb(), body.filters));
