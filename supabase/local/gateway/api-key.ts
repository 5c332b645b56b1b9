import type { IncomingMessage, ServerResponse } from "node:http";
import { header, sendJson } from "./http";
import type { TokenService, VerifiedClaims } from "./tokens";

export interface ApiKeyIdentity {
  role: "anon" | "service_role";
  claims: VerifiedClaims;
}

/**
 * Supabase's API gateway (Kong) refuses any /auth/v1 or /rest/v1 request without a valid project key before the
 * service sees it. Our keys are ES256 JWTs signed by the stack key with a `role` claim (supabase/local/keys.ts), so
 * a key is valid when it verifies and names anon or service_role. Only the `apikey` header is read: a key in the
 * query string would end up in logs.
 * On failure the 401 body is Kong's, and the request is answered here (returns null).
 */
export async function requireApiKey(
  req: IncomingMessage,
  res: ServerResponse,
  tokens: TokenService,
): Promise<ApiKeyIdentity | null> {
  const key = header(req, "apikey");
  if (!key) {
    sendJson(res, 401, {
      message: "No API key found in request",
      hint: "No `apikey` request header or url param was found.",
    });
    return null;
  }
  const verified = await tokens.verify(key);
  const role = verified.ok ? verified.claims.role : undefined;
  if (!verified.ok || (role !== "anon" && role !== "service_role")) {
    sendJson(res, 401, {
      message: "Invalid API key",
      hint: "Double check your Supabase `anon` or `service_role` API key.",
    });
    return null;
  }
  return { role, claims: verified.claims };
}
