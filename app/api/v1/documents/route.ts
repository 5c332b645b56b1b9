import { withRoute } from "@/lib/api/route";
import { listResponse } from "@/lib/api/v1";
import { listDocumentsV1 } from "@/lib/backend/api-v1/documents";
import { V1DocumentsListQuery } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** GET /api/v1/documents: judgment summaries, paged, with a Link header. */
export const GET = withRoute({ auth: "public", apiKey: "required", query: V1DocumentsListQuery }, async ({ req, query, serviceDb }) => {
  const body = await listDocumentsV1(serviceDb(), query);
  return listResponse(req, body, { limit: query.limit, offset: query.offset, total: body.total });
});
