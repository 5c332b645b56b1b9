import { withRoute } from "@/lib/api/route";
import { chatV1 } from "@/lib/backend/api-v1/assistants";
import { V1ChatBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/chat {message, filters?, stream?}: the web chat's answer in the reference shape, as server-sent events
 * (token, sources, done) or one JSON object; no thread is kept.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1ChatBody }, async ({ body, req }) => chatV1(body, {}, req.signal));
