import { limitCredentialAttempt } from "@/lib/api/rate-limit";
import { withRoute } from "@/lib/api/route";
import { changePassword } from "@/lib/backend/settings/profile";
import { ChangePasswordSchema } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/**
 * POST /api/settings/password {current_password, new_password} → 204; 403 CURRENT_PASSWORD_WRONG. Guesses of the
 * current password count against the sign-in attempt limits.
 */
export const POST = withRoute({ auth: "user", body: ChangePasswordSchema, maxBodyBytes: "credentials" }, async ({ identity, body, serviceDb, clientAddress }) => {
  await limitCredentialAttempt(clientAddress, identity.email ?? "");
  await changePassword(identity, serviceDb(), body);
  return new Response(null, { status: 204 });
});
