/**
 * Local verification of Supabase access tokens with a cached JWKS (jose): what supabase-js's `getClaims()` does for
 * asymmetric keys, without building a Supabase client and re-importing the public key on every request (~1 ms of
 * every signed-in API call, measured with SERVER_TIMING=1).
 *
 * Every function here answers null when it cannot decide, and the caller then takes the supabase-js path, which
 * refreshes sessions and falls back to the auth server: no or unreadable cookie, a session at or near expiry (it must
 * be refreshed, and only supabase-js can write the new cookies), a symmetric (HS256) token, a key not in the JWKS,
 * a JWKS that cannot be fetched, a bad signature or an expired token.
 */
import { combineChunks, parseCookieHeader } from "@supabase/ssr";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import { LRUCache } from "lru-cache";

/** supabase-js refreshes a session this close to its expiry (auth-js EXPIRY_MARGIN_MS); so do we, by deferring. */
const EXPIRY_MARGIN_MS = 90_000;
const ASYMMETRIC = ["ES256", "RS256", "EdDSA"];

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function jwksOf(supabaseUrl: string) {
  let jwks = jwksByUrl.get(supabaseUrl);
  if (!jwks) {
    // jose caches the keys (and their imported CryptoKeys) and refetches on an unknown kid, at most every 30 s.
    jwks = createRemoteJWKSet(new URL("/auth/v1/.well-known/jwks.json", supabaseUrl), { cacheMaxAge: 10 * 60_000 });
    jwksByUrl.set(supabaseUrl, jwks);
  }
  return jwks;
}

/**
 * Tokens verified recently: a signature check costs ~0.3 ms (ES256) and a browser sends the same token for up to an
 * hour. An entry lives at most VERIFIED_TTL_MS (lru-cache's ttl) and is never used past the token's own expiry, so a
 * key withdrawn from the JWKS stops being honoured within that time.
 */
const VERIFIED_TTL_MS = 60_000;
const verified = new LRUCache<string, JWTPayload>({ max: 10_000, ttl: VERIFIED_TTL_MS });

const expiresAtMs = (payload: JWTPayload): number | null => (typeof payload.exp === "number" ? payload.exp * 1000 : null);

/** The claims of a valid, unexpired access token signed with an asymmetric key of the project's JWKS, or null. */
export async function verifyAccessToken(token: string, supabaseUrl: string, now = Date.now()): Promise<JWTPayload | null> {
  const key = `${supabaseUrl} ${token}`;
  const hit = verified.get(key);
  // The token's own expiry is checked on every hit: the ttl bounds the entry's life, not the token's.
  if (hit && (expiresAtMs(hit) ?? 0) > now) return hit;
  try {
    const { alg } = decodeProtectedHeader(token);
    if (!alg || !ASYMMETRIC.includes(alg)) return null;
    const { payload } = await jwtVerify(token, jwksOf(supabaseUrl), { algorithms: ASYMMETRIC, currentDate: new Date(now) });
    const exp = expiresAtMs(payload);
    // A token without exp is verified every time (never cached).
    if (exp !== null && exp > now) verified.set(key, payload, { ttl: Math.min(exp - now, VERIFIED_TTL_MS) });
    return payload;
  } catch {
    return null;
  }
}

/** The auth cookie name supabase-js uses by default: `sb-<first label of the project host>-auth-token`. */
export function sessionCookieName(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`;
}

/** The access token of the @supabase/ssr session cookie while the session is not due for a refresh, else null. */
export async function sessionAccessToken(cookieHeader: string | null, supabaseUrl: string, now = Date.now()): Promise<string | null> {
  if (!cookieHeader) return null;
  const cookies = new Map(parseCookieHeader(cookieHeader).map((c) => [c.name, c.value]));
  try {
    const raw = await combineChunks(sessionCookieName(supabaseUrl), (name) => cookies.get(name));
    if (!raw) return null;
    // Node's native base64url decoder: @supabase/ssr's JavaScript one took ~0.05 ms for a 3 KB session, on every
    // signed-in request (the hottest function of the app in a profile of autocomplete calls). Invalid input decodes to
    // garbage that fails JSON.parse below, which answers null like a decoding error.
    const json = raw.startsWith("base64-") ? Buffer.from(raw.slice("base64-".length), "base64url").toString("utf8") : decodeURIComponent(raw);
    const session = JSON.parse(json) as { access_token?: unknown; expires_at?: unknown };
    if (typeof session.access_token !== "string" || typeof session.expires_at !== "number") return null;
    if (session.expires_at * 1000 - now < EXPIRY_MARGIN_MS) return null;
    return session.access_token;
  } catch {
    return null;
  }
}

/**
 * The claims of the cookie session when its access token verifies locally (not due for a refresh, an asymmetric key
 * of the JWKS, unexpired), else null: the caller then asks supabase-js, which refreshes or refuses. The fast path of
 * the route handlers, the pages and the middleware alike.
 */
export async function verifiedSessionClaims(cookieHeader: string | null, supabaseUrl: string, now = Date.now()): Promise<JWTPayload | null> {
  const token = await sessionAccessToken(cookieHeader, supabaseUrl, now);
  return token ? verifyAccessToken(token, supabaseUrl, now) : null;
}
