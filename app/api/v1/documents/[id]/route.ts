import { withRoute } from "@/lib/api/route";
import { documentDetail } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/documents/{id}: the full judgment detail record of the reference API (R-END-126, R-RES-018), for server
 * callers holding an API key. Judgments are public (anon may read them), so the read runs as the caller, whoever
 * that is: the key holder without a bearer reads as anon, with a bearer as that user.
 */
export const GET = withRoute({ auth: "public", apiKey: "required" }, async ({ params, identity }) =>
  documentDetail(params.id, identity),
);
