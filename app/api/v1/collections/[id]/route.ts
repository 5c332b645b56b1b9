import { withRoute } from "@/lib/api/route";
import { getCollectionV1 } from "@/lib/backend/api-v1/account";

export const dynamic = "force-dynamic";

/** GET /api/v1/collections/{id}: the collection with documents[{id, case_number, title, added_at}]; another user's is 404. */
export const GET = withRoute({ auth: "public", apiKey: "required" }, async ({ params, identity, serviceDb }) =>
  getCollectionV1(serviceDb(), identity, params.id),
);
