import { rateLimitIdentityOf } from "@/lib/api/identity";
import { limitQuota } from "@/lib/api/rate-limit";
import { withRoute } from "@/lib/api/route";
import { qaV1 } from "@/lib/backend/api-v1/assistants";
import { V1QaBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/qa {question, context_filters?} → {answer, confidence, sources[{id, case_number, excerpt}], mode}.
 * Counts against the key's user's hourly chatMessages quota, shared with /api/chat, /api/qa and /api/v1/chat.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1QaBody }, async ({ body, req, identity, clientAddress }) => {
  await limitQuota("chatMessages", { rateLimitId: identity.userId ? rateLimitIdentityOf(identity.userId) : null, address: clientAddress });
  return qaV1(body, {}, req.signal);
});
