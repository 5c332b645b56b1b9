import { withRoute } from "@/lib/api/route";
import { listResponse } from "@/lib/api/v1";
import { listSchemasV1 } from "@/lib/backend/api-v1/schemas";
import { V1PageQuery } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/schemas?limit=&offset= → {schemas: [{id, name, description, version, created_at}], total, page, per_page,
 * pages} with a Link header: the built-in base schema (id "base") first, then the key's user's own (RLS as that user).
 */
export const GET = withRoute({ auth: "public", apiKey: "required", query: V1PageQuery }, async ({ req, query, identity, serviceDb }) => {
  const body = await listSchemasV1(serviceDb(), identity, query);
  return listResponse(req, body, { limit: query.limit, offset: query.offset, total: body.total });
});
