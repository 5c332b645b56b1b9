import { withRoute } from "@/lib/api/route";
import { revokeUserApiKey } from "@/lib/backend/api-keys";
import { ApiError } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";

export const dynamic = "force-dynamic";

/** DELETE /api/settings/api-keys/{id} → 204: revoke one of the caller's keys; another user's id is 404 API_KEY_NOT_FOUND. */
export const DELETE = withRoute({ auth: "user" }, async ({ identity, params, serviceDb }) => {
  if (!isUuid(params.id)) throw new ApiError("API_KEY_NOT_FOUND");
  await revokeUserApiKey(serviceDb(), identity.userId as string, params.id);
  return new Response(null, { status: 204 });
});
