import { guestCookie, guestCookieOf } from "@/lib/api/guest-meter";
import { limitCredentialAttempt } from "@/lib/api/rate-limit";
import { withRoute } from "@/lib/api/route";
import { endGuestSessionAfterSignUp } from "@/lib/backend/auth/guest-conversion";
import { signUp } from "@/lib/backend/auth/session";
import { SignUpSchema } from "@/lib/schema/requests/auth";

/** POST /api/auth/sign-up: password of at least 10 characters; attempts limited per client IP and hashed e-mail (L4). */
export const POST = withRoute({ auth: "public", body: SignUpSchema, maxBodyBytes: "credentials" }, async ({ req, body, db, clientAddress }) => {
  await limitCredentialAttempt(clientAddress, body.email);
  const result = await signUp(db, body);
  // The new account ends the visitor's guest session in this same request (R-STA-016), as /api/guest/convert does.
  const cookie = guestCookieOf(req);
  if (result.signedIn && cookie !== null) {
    await endGuestSessionAfterSignUp(cookie);
    // Expires as well as Max-Age=0: Next re-serialises Set-Cookie when the handler also set cookies (the session) and
    // drops a zero Max-Age on the way, which would leave an empty session cookie instead of removing it.
    const cleared = `${guestCookie("", 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    return Response.json(result, { status: 201, headers: { "Set-Cookie": cleared } });
  }
  return Response.json(result, { status: 201 });
});
