import { createHmac } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { config } from "@/lib/config";
import { verifyApiKey, type VerifiedApiKey } from "@/lib/backend/api-keys";
import { supabaseEnv } from "@/lib/supabase/env";
import { createServiceClient, createSessionClient, createTokenClient, sessionClientFactory } from "@/lib/supabase/server";
import { ApiError, authOutage } from "./errors";
import { sessionAccessToken, verifyAccessToken } from "./token-claims";

export type Role = "anonymous" | "user" | "admin";

export interface Identity {
  role: Role;
  userId: string | null;
  email: string | null;
  /** How the caller proved who they are. */
  via: "session" | "bearer" | "none";
  /** A client acting as this caller (RLS applies). */
  db: SupabaseClient;
  /**
   * The server API key presented in X-API-Key (server-to-server callers of /api/v1 and /api/events), verified against
   * its stored hash. A key alone is not user authorization (spec: Authentication 2): the user, if any, still comes
   * from the bearer token or the session.
   */
  apiKey?: VerifiedApiKey | null;
  /**
   * Hashed per-user rate-limit identity (spec: Authentication 2): an HMAC of the user id, so limit keys and logs never
   * carry the raw id. Null for anonymous callers.
   */
  rateLimitId?: string | null;
}

interface Claims {
  sub?: string;
  email?: string;
  role?: string;
  app_metadata?: { role?: string };
}

function roleOf(claims: Claims | null): Role {
  if (!claims?.sub || claims.role !== "authenticated") return "anonymous";
  return claims.app_metadata?.role === "admin" ? "admin" : "user";
}

function bearerOf(req: Request): string | null {
  const h = req.headers.get("authorization");
  const m = h?.match(/^Bearer\s+(\S+)$/i);
  return m ? m[1] : null;
}

/** Whether the request carries a Supabase auth cookie (`sb-<ref>-auth-token`, possibly chunked). */
function hasSessionCookie(req: Request): boolean {
  const cookie = req.headers.get("cookie");
  return !!cookie && /(?:^|;\s*)sb-[^=]*-auth-token/.test(cookie);
}

/** HMAC of the user id under a server secret: stable per user, meaningless outside this service. */
export function rateLimitIdentityOf(userId: string): string {
  const c = config();
  const secret = c.RATE_LIMIT_IDENTITY_SECRET ?? c.SUPABASE_SERVICE_ROLE_KEY ?? "local-rate-limit-identity";
  return createHmac("sha256", secret).update(`user:${userId}`).digest("hex").slice(0, 32);
}

/**
 * Check X-API-Key when present. A present but wrong key is a 401 (never silently anonymous), so a misconfigured
 * server client finds out at once.
 */
async function apiKeyOf(req: Request): Promise<VerifiedApiKey | null> {
  const presented = req.headers.get("x-api-key");
  if (presented === null) return null;
  const verified = await verifyApiKey(createServiceClient(), presented.trim());
  if (!verified) throw new ApiError(401, "INVALID_API_KEY", "The API key is not valid.");
  return verified;
}

/** `identity` with `db` made by `make` on first read (most read-only routes never use it). */
function withLazyDb(identity: Omit<Identity, "db">, make: () => SupabaseClient): Identity {
  let db: SupabaseClient | null = null;
  return Object.defineProperty(identity, "db", { get: () => (db ??= make()), enumerable: true }) as Identity;
}

/**
 * Resolve who is calling: a bearer token (servers, API clients) or the cookie session (browsers), plus an optional
 * API key. Reads verify the JWT locally: first against the cached JWKS (`token-claims.ts`), and when that cannot
 * decide (a session due for refresh, a symmetric key, …) with supabase-js `getClaims()`, which refreshes the session.
 * `strict` (used before writes) asks the auth server with getUser() so a signed-out or deleted account is refused
 * even while its token has not expired.
 */
export async function resolveIdentity(req: Request, { strict }: { strict: boolean }): Promise<Identity> {
  const apiKey = await apiKeyOf(req);
  const bearer = bearerOf(req);
  const { url } = supabaseEnv();
  // The caller's client, built at most once per request. The session client stays the anonymous caller's client
  // too: sign-in and sign-up set the session cookies through it.
  const makeCallerDb = bearer ? () => createTokenClient(bearer) : await sessionClientFactory();
  let callerDb: SupabaseClient | null = null;
  const makeDb = () => (callerDb ??= makeCallerDb());
  const via: Identity["via"] = bearer ? "bearer" : "session";
  const anonymous = (): Identity =>
    withLazyDb({ role: "anonymous", userId: null, email: null, via: "none", apiKey, rateLimitId: null }, bearer ? () => createTokenClient() : makeDb);
  const signedIn = (role: Role, userId: string, email: string | null): Identity =>
    withLazyDb({ role, userId, email, via, apiKey, rateLimitId: rateLimitIdentityOf(userId) }, makeDb);
  // No bearer and no session cookie: nothing to verify.
  if (!bearer && !hasSessionCookie(req)) return anonymous();

  if (!strict) {
    const token = bearer ?? (await sessionAccessToken(req.headers.get("cookie"), url));
    const fast = token ? ((await verifyAccessToken(token, url)) as Claims | null) : null;
    if (fast) {
      const role = roleOf(fast);
      return role === "anonymous" || !fast.sub ? anonymous() : signedIn(role, fast.sub, fast.email ?? null);
    }
  }

  const db = makeDb();
  const { data, error } = bearer ? await db.auth.getClaims(bearer) : await db.auth.getClaims();
  if (error) {
    const outage = authOutage(error);
    if (outage) throw outage;
  }
  if (error || !data?.claims) return anonymous();
  const claims = data.claims as Claims;
  const role = roleOf(claims);
  if (role === "anonymous") return anonymous();
  if (strict) {
    const { data: userData, error: userError } = bearer ? await db.auth.getUser(bearer) : await db.auth.getUser();
    if (userError) {
      const outage = authOutage(userError);
      if (outage) throw outage;
    }
    if (userError || !userData.user || userData.user.id !== claims.sub) return anonymous();
    const strictRole: Role = userData.user.app_metadata?.role === "admin" ? "admin" : "user";
    return signedIn(strictRole, userData.user.id, userData.user.email ?? null);
  }
  const userId = claims.sub ?? null;
  return userId ? signedIn(role, userId, claims.email ?? null) : anonymous();
}

/**
 * The visitor of a server-rendered page (cookie session only). Pages read through `lib/backend` directly with it
 * instead of calling their own API over HTTP, which would cost a round trip and count against the server's own
 * address in the rate limiter.
 */
export async function pageIdentity(): Promise<Identity> {
  const db = await createSessionClient();
  const { data, error } = await db.auth.getClaims();
  const claims = !error && data?.claims ? (data.claims as Claims) : null;
  const role = roleOf(claims);
  const userId = role === "anonymous" ? null : (claims?.sub ?? null);
  return {
    role,
    userId,
    email: userId ? (claims?.email ?? null) : null,
    via: userId ? "session" : "none",
    db,
    apiKey: null,
    rateLimitId: userId ? rateLimitIdentityOf(userId) : null,
  };
}
