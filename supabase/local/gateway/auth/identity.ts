import type { IncomingMessage } from "node:http";
import type { GatewayContext } from "../context";
import { header } from "../http";
import { bearerToken, type VerifiedClaims } from "../tokens";
import { AuthError, badRequest, forbidden } from "./errors";
import { findSession, type SessionRow } from "./sessions";
import { appMetadataOf, findUserById, userJson, type UserRow } from "./users";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === "string" && UUID_RE.test(s);

/** Verify the bearer token like GoTrue's requireAuthentication + parseJWTClaims (403 bad_jwt on any failure). */
export async function requireClaims(ctx: GatewayContext, req: IncomingMessage): Promise<VerifiedClaims> {
  const token = bearerToken(header(req, "authorization"));
  if (!token) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  const verified = await ctx.tokens.verify(token);
  if (!verified.ok) {
    const reason =
      verified.failure.kind === "expired" ? "token has invalid claims: token is expired" : verified.failure.message;
    throw forbidden("bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
  return verified.claims;
}

export interface Authenticated {
  claims: VerifiedClaims;
  user: UserRow;
  session: SessionRow | null;
}

/** GoTrue's maybeLoadUserOrSession: the token's sub must be a live user and its session_id a live session. */
export async function requireUser(ctx: GatewayContext, req: IncomingMessage): Promise<Authenticated> {
  const claims = await requireClaims(ctx, req);
  if (!claims.sub) throw forbidden("bad_jwt", "invalid claim: missing sub claim");
  if (!isUuid(claims.sub)) throw badRequest("bad_jwt", "invalid claim: sub claim must be a UUID");
  const user = await findUserById(ctx.pool, claims.sub);
  if (!user) throw forbidden("user_not_found", "User from sub claim in JWT does not exist");
  let session: SessionRow | null = null;
  const sid = claims.session_id;
  if (sid && sid !== "00000000-0000-0000-0000-000000000000") {
    if (!isUuid(sid)) throw forbidden("bad_jwt", "invalid claim: session_id claim must be a UUID");
    session = await findSession(ctx.pool, sid);
    if (!session) throw forbidden("session_not_found", "Session from session_id claim in JWT does not exist");
  }
  return { claims, user, session };
}

/**
 * The access token GoTrue issues (tokens.AccessTokenClaims): ES256 with our kid, aud "authenticated", the user's
 * role, metadata, session and assurance level. amr records the password sign-in at the session's start.
 */
export async function accessTokenFor(ctx: GatewayContext, user: UserRow, session: SessionRow): Promise<{ token: string; exp: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ctx.jwtExpirySeconds;
  const token = await ctx.tokens.sign({
    iss: ctx.issuer,
    sub: user.id,
    aud: "authenticated",
    exp,
    iat,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: appMetadataOf(user),
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || "authenticated",
    aal: session.aal ?? "aal1",
    amr: [{ method: "password", timestamp: Math.floor(session.created_at.getTime() / 1000) }],
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  });
  return { token, exp };
}

/** GoTrue's AccessTokenResponse, which auth-js stores as the session. */
export async function sessionResponse(
  ctx: GatewayContext,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<Record<string, unknown>> {
  const { token, exp } = await accessTokenFor(ctx, user, session);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ctx.jwtExpirySeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}
