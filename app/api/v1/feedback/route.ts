import { withRoute } from "@/lib/api/route";
import { submitFeedbackV1 } from "@/lib/backend/api-v1/account";
import { V1FeedbackBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/feedback → 201 {id, message, created_at}; stored, readable by admins only. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1FeedbackBody }, async ({ body, identity, serviceDb }) =>
  Response.json(await submitFeedbackV1(serviceDb(), identity, body), { status: 201 }),
);
