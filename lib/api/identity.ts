import { createHmac } from "node:crypto";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { LruCache } from "@/lib/lru";
import { effectiveRole } from "@/lib/backend/admin/access";
import { touchApiKey, verifyApiKey, type VerifiedApiKey } from "@/lib/backend/api-keys";
import { supabaseEnv } from "@/lib/supabase/env";
import type { Identity, Role } from "@/lib/backend/identity";
import { anonReaderClient, createServiceClient, createTokenClient, sessionClientFactory } from "@/lib/supabase/server";
import { ApiError, authOutage } from "@/lib/errors";
import { verifiedSessionClaims, verifyAccessToken } from "./token-claims";

// The types live with the backend modules that consume them (layers point one way); re-exported for the web tier.
export type { Identity, Role };

export interface Claims {
  sub?: string;
  email?: string;
  role?: string;
  iat?: number;
  app_metadata?: { role?: string };
}

export function roleOf(claims: Claims | null): Role {
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

/** Computed identities by secret and user id: a signed-in request needs its own twice (limiter, identity). */
const rateLimitIds = new LruCache<string, string>(10_000);

/** HMAC of the user id under a server secret: stable per user, meaningless outside this service. */
export function rateLimitIdentityOf(userId: string): string {
  const c = config();
  const secret = c.RATE_LIMIT_IDENTITY_SECRET ?? c.SUPABASE_SERVICE_ROLE_KEY ?? "local-rate-limit-identity";
  const key = `${secret}\0${userId}`;
  let id = rateLimitIds.get(key);
  if (id === undefined) {
    id = createHmac("sha256", secret).update(`user:${userId}`).digest("hex").slice(0, 32);
    rateLimitIds.set(key, id);
  }
  return id;
}

/**
 * Check X-API-Key when present. A present but wrong key is a 401 (never silently anonymous), so a misconfigured
 * server client finds out at once.
 */
async function apiKeyOf(req: Request): Promise<VerifiedApiKey | null> {
  const presented = req.headers.get("x-api-key");
  if (presented === null) return null;
  const verified = await verifyApiKey(createServiceClient(), presented.trim());
  if (!verified) throw new ApiError("INVALID_API_KEY", "The API key is not valid.");
  return verified;
}

/**
 * The caller of the reference API (`/api/v1/**`): the X-API-Key alone decides, acting as the key's user
 * (D-18, docs/api.md); a bearer token or session cookie is ignored. Missing → 401 API_KEY_REQUIRED; unknown, revoked,
 * expired, or of a banned owner → 401 INVALID_API_KEY. `db` is the anonymous client: user data is reached only through
 * the api_v1_* functions, which run as the key's user under RLS. Each use refreshes the key's last_used_at (at most once a minute).
 */
export async function resolveApiKeyIdentity(req: Request): Promise<Identity> {
  const apiKey = await apiKeyOf(req);
  if (!apiKey) throw new ApiError("API_KEY_REQUIRED", "This endpoint needs a server API key in the X-API-Key header.");
  // A banned owner's keys are refused while the ban lasts (P-82). The lookup skips them too; this also covers a key
  // remembered from before the ban (verifyApiKey's cache).
  if (apiKey.userId && (await effectiveRole(createServiceClient, apiKey.userId, "user")) === "anonymous") {
    throw new ApiError("INVALID_API_KEY", "The API key is not valid.");
  }
  void touchApiKey(createServiceClient(), apiKey.id).catch(() => undefined);
  return withLazyDb(
    { role: apiKey.userId ? "user" : "anonymous", userId: apiKey.userId, email: null, via: "apiKey", apiKey, rateLimitId: null },
    () => createTokenClient(),
  );
}

/** `make`, called on first use only; every later call returns that first value (a request's client, say). */
export function builtOnce<T extends object>(make: () => T): () => T {
  let made: T | null = null;
  return () => (made ??= make());
}

/** `identity` with `db` made by `make` on first read (most read-only routes and pages never use it). */
export function withLazyDb(identity: Omit<Identity, "db">, make: () => DbClient): Identity {
  return Object.defineProperty(identity, "db", { get: builtOnce(make), enumerable: true }) as Identity;
}

/**
 * supabase-js getClaims(), or null for a token it cannot even process: one that names an algorithm it has no verifier
 * for under a genuine kid (alg "NONE", "EdDSA", "PS256" ...) makes it throw a plain Error instead of returning an auth
 * error. Such a token is forged, so the caller is anonymous (401 on a gated route), not a 500 (tests/security).
 */
export async function claimsOf(db: DbClient, bearer: string | null) {
  try {
    return bearer ? await db.auth.getClaims(bearer) : await db.auth.getClaims();
  } catch (e) {
    // A thrown network failure or time-out (fetching the JWKS) says nothing about the token: still an outage (M3).
    const err = e instanceof Error ? e : new Error(String(e));
    if (err.name === "AbortError" || err.name === "TimeoutError" || /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up/i.test(err.message)) {
      return { data: null, error: { status: 0, name: err.name, message: err.message } };
    }
    return null;
  }
}

/**
 * The claims of a caller whose bearer or session token verifies locally (the cached JWKS of token-claims.ts; no
 * database call, no auth-server call but jose's rate-capped JWKS fetch), else null: the fast path of resolveIdentity.
 * The route also reads it before its limiter call, to count the per-IP and per-user limits in one round trip
 * (lib/api/route.ts), and hands it to resolveIdentity so the cookie is decoded and the token checked once. Whether
 * the account is banned or signed out is not known here.
 */
export async function locallyVerifiedClaims(req: Request): Promise<Claims | null> {
  const bearer = bearerOf(req);
  if (!bearer && !hasSessionCookie(req)) return null;
  const { url } = supabaseEnv();
  if (bearer) return (await verifyAccessToken(bearer, url)) as Claims | null;
  return (await verifiedSessionClaims(req.headers.get("cookie"), url)) as Claims | null;
}

/** The per-user rate-limit identity of locally verified claims of a signed-in caller, else null. */
export function rateLimitIdOfClaims(claims: Claims | null): string | null {
  return claims?.sub && roleOf(claims) !== "anonymous" ? rateLimitIdentityOf(claims.sub) : null;
}

/**
 * Resolve who is calling: a bearer token (servers, API clients) or the cookie session (browsers), plus an optional
 * API key. Reads verify the JWT locally: first against the cached JWKS (`token-claims.ts`), and when that cannot
 * decide (a session due for refresh, a symmetric key, …) with supabase-js `getClaims()`, which refreshes the session.
 * `strict` (used before writes) asks the auth server with getUser() so a signed-out or deleted account is refused
 * even while its token has not expired.
 */
export async function resolveIdentity(
  req: Request,
  { strict, verified }: { strict: boolean; /** locallyVerifiedClaims(req), when the caller already read it. */ verified?: Claims | null },
): Promise<Identity> {
  const apiKey = await apiKeyOf(req);
  const bearer = bearerOf(req);
  // A read with no bearer and no session cookie: nothing to verify, and no cookie to write back, so the process's
  // anonymous client serves it (anonReaderClient) instead of a session client built for this request.
  if (!bearer && !hasSessionCookie(req) && (req.method === "GET" || req.method === "HEAD")) {
    return { role: "anonymous", userId: null, email: null, via: "none", apiKey, rateLimitId: null, db: anonReaderClient() };
  }
  // The caller's client, built at most once per request. The session client stays the anonymous caller's client
  // too: sign-in and sign-up set the session cookies through it.
  const makeDb = builtOnce(bearer ? () => createTokenClient(bearer) : await sessionClientFactory());
  const via: Identity["via"] = bearer ? "bearer" : "session";
  const anonymous = (): Identity =>
    withLazyDb({ role: "anonymous", userId: null, email: null, via: "none", apiKey, rateLimitId: null }, bearer ? () => createTokenClient() : makeDb);
  // Banned users and revoked admins are refused even while their token is valid (lib/backend/admin/access.ts).
  const signedIn = async (claimed: Exclude<Role, "anonymous">, userId: string, email: string | null, iat?: number): Promise<Identity> => {
    const role = await effectiveRole(createServiceClient, userId, claimed, iat);
    if (role === "anonymous") return anonymous();
    return withLazyDb({ role, userId, email, via, apiKey, rateLimitId: rateLimitIdentityOf(userId) }, makeDb);
  };
  // No bearer and no session cookie: nothing to verify.
  if (!bearer && !hasSessionCookie(req)) return anonymous();

  if (!strict) {
    const fast = verified === undefined ? await locallyVerifiedClaims(req) : verified;
    if (fast) {
      const role = roleOf(fast);
      return role === "anonymous" || !fast.sub ? anonymous() : signedIn(role, fast.sub, fast.email ?? null, fast.iat);
    }
  }

  const db = makeDb();
  const claimed = await claimsOf(db, bearer);
  if (!claimed) return anonymous();
  const { data, error } = claimed;
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
    // getUser() read the role just now: no token age to weigh, only a ban.
    return signedIn(strictRole, userData.user.id, userData.user.email ?? null, Math.floor(Date.now() / 1000) + 1);
  }
  const userId = claims.sub ?? null;
  return userId ? signedIn(role, userId, claims.email ?? null, claims.iat) : anonymous();
}
