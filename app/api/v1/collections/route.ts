import { withRoute } from "@/lib/api/route";
import { listResponse } from "@/lib/api/v1";
import { createCollectionV1, listCollectionsV1 } from "@/lib/backend/api-v1/account";
import { V1PageQuery } from "@/lib/schema/requests/api-v1";
import { CreateCollectionSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/v1/collections: the key's user's collections (RLS as that user), paged, with a Link header. */
export const GET = withRoute({ auth: "public", apiKey: "required", query: V1PageQuery }, async ({ req, query, identity, serviceDb }) => {
  const body = await listCollectionsV1(serviceDb(), identity, query);
  return listResponse(req, body, { limit: query.limit, offset: query.offset, total: body.total });
});

/** POST /api/v1/collections {name, description, document_ids[], tags[]} → 201. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: CreateCollectionSchema }, async ({ body, identity, serviceDb }) =>
  Response.json(await createCollectionV1(serviceDb(), identity, body), { status: 201 }),
);
