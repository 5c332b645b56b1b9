import { withRoute } from "@/lib/api/route";
import { openApiDocument } from "@/lib/backend/api-v1/openapi";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document, generated from the handlers' zod schemas. Public (no key): the
 * contract is not a secret and /developers renders it for readers who have no key yet.
 */
export const GET = withRoute({ auth: "public" }, () => openApiDocument());
