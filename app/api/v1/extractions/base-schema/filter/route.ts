import { withRoute } from "@/lib/api/route";
import { filterDocuments } from "@/lib/backend/extractions/filter";
import { FilterRequestSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/extractions/base-schema/filter: the user-free filter path (R-END-037, D-17, A-17), for server callers
 * holding an API key; no user session. Same request, checks and response as the web route. collection_ids is refused
 * (400 COLLECTION_IDS_NOT_ALLOWED, R-AUTH-028) before any read, so the service client, which the filter function
 * needs without a signed-in user, can only ever read public judgment data.
 */
export const POST = withRoute(
  { auth: "public", apiKey: "required", body: FilterRequestSchema },
  async ({ body, serviceDb }) => filterDocuments(serviceDb(), body),
);
