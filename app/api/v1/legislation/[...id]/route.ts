import { withRoute } from "@/lib/api/route";
import { provision, ProvisionQuery } from "@/lib/backend/legislation";

export const dynamic = "force-dynamic";

/** GET /api/v1/legislation/{id}: a provision and the judgments applying it (as /api/legislation/{id}), for API-key holders. */
export const GET = withRoute({ auth: "public", apiKey: "required", query: ProvisionQuery }, async ({ params, query, identity }) =>
  provision(params.id, query, identity),
);
