import { limitCredentialAttempt } from "@/lib/api/rate-limit";
import { withRoute } from "@/lib/api/route";
import { signIn } from "@/lib/backend/auth/session";
import { CredentialsSchema } from "@/lib/schema/requests/auth";

/** POST /api/auth/sign-in; attempts are limited per client IP and per hashed e-mail before the auth server is asked (L4). */
export const POST = withRoute({ auth: "public", body: CredentialsSchema, maxBodyBytes: "credentials" }, async ({ body, db, clientAddress }) => {
  await limitCredentialAttempt(clientAddress, body.email);
  return { user: await signIn(db, body) };
});
