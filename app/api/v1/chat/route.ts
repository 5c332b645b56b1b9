import { rateLimitIdentityOf } from "@/lib/api/identity";
import { limitQuota } from "@/lib/api/rate-limit";
import { withRoute } from "@/lib/api/route";
import { chatV1 } from "@/lib/backend/api-v1/assistants";
import { V1ChatBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/chat {message, filters?, stream?}: the web chat's answer in the reference shape, as server-sent events
 * (token, sources, done) or one JSON object; no thread is kept. Counts against the key's user's hourly chatMessages
 * quota, the one /api/chat and /api/qa draw on: a user's keys buy no model calls past it.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1ChatBody }, async ({ body, req, identity, clientAddress }) => {
  await limitQuota("chatMessages", { rateLimitId: identity.userId ? rateLimitIdentityOf(identity.userId) : null, address: clientAddress });
  return chatV1(body, {}, req.signal);
});
