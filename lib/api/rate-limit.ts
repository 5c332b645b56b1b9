import { createHmac } from "node:crypto";
import { config } from "@/lib/config";
import { rateLimiter, type QuotaName, type RateLimitVerdict, type RuleName } from "@/lib/backend/rate-limit";
import { clientAddressOf, proxyTrustOf, type ClientAddress, type ProxyTrust } from "./client-address";
import { RateLimitError } from "./errors";

/**
 * The per-route limit (D-21): "search" = GET /api/search/documents, per client IP (SEARCH_DOCUMENTS_RATE_LIMIT);
 * "general" (the default) = 100/min per IP, plus 1000/h per API key when one is presented; "none" only for routes
 * that must answer whatever the load (none today). A signed-in caller is also counted under the same rule per user
 * (`limitByUser`), so rotating addresses does not buy a fresh allowance (R-AUTH-007).
 */
export type RateLimitPolicy = "search" | "general" | "none";

let trustMemo: { settings: object; trust: ProxyTrust } | null = null;

/** The proxy trust settings, parsed once per configuration (tests re-read the configuration). */
function proxyTrust(): ProxyTrust {
  const c = config();
  if (trustMemo?.settings !== c) trustMemo = { settings: c, trust: proxyTrustOf(c) };
  return trustMemo.trust;
}

// Only the headers are read, so pages (next/headers) can resolve the visitor's address the same way.
export function clientAddress(req: Pick<Request, "headers">): ClientAddress {
  return clientAddressOf(req.headers, proxyTrust());
}

/** The X-RateLimit-* headers of a verdict (Reset in epoch seconds, as most APIs send it). */
export function rateLimitHeaders(v: RateLimitVerdict): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(v.limit),
    "X-RateLimit-Remaining": String(Math.max(0, v.remaining)),
    "X-RateLimit-Reset": String(Math.ceil(v.reset / 1000)),
  };
}

function refuse(v: RateLimitVerdict): RateLimitError {
  const retryAfter = Math.max(1, Math.ceil((v.reset - Date.now()) / 1000));
  return new RateLimitError(retryAfter, rateLimitHeaders({ ...v, remaining: 0 }));
}

/**
 * The per-IP rule of `policy` and, when the caller's token was already verified, the same rule per user (R-AUTH-007),
 * counted in one limiter round trip, address first. Throws the 429 of whichever refuses; returns the
 * verdicts for the headers.
 */
export async function limitByAddressAndUser(policy: Exclude<RateLimitPolicy, "none">, address: string, rateLimitId: string | null | undefined): Promise<RateLimitVerdict[]> {
  const rule: RuleName = policy === "search" ? "search" : "ip";
  const subjects = rateLimitId ? [`ip:${address}`, `user:${rateLimitId}`] : [`ip:${address}`];
  const verdicts = await rateLimiter().checkAll(rule, subjects);
  const refused = verdicts.find((v) => !v.success);
  if (refused) throw refuse(refused);
  return verdicts;
}

/**
 * Count a signed-in caller's request against the same rule per user (R-AUTH-007), keyed on the hashed per-user
 * identity (`Identity.rateLimitId`, never the raw id). Separate counters from the per-IP ones (`user:` subjects).
 */
export async function limitByUser(policy: Exclude<RateLimitPolicy, "none">, rateLimitId: string): Promise<RateLimitVerdict> {
  const rule: RuleName = policy === "search" ? "search" : "ip";
  const v = await rateLimiter().check(rule, `user:${rateLimitId}`);
  if (!v.success) throw refuse(v);
  return v;
}

/** Count this request against the hourly limit of its API key (D-21); throws the 429 when over. */
export async function limitByApiKey(apiKeyId: string): Promise<RateLimitVerdict> {
  const v = await rateLimiter().check("apiKey", `key:${apiKeyId}`);
  if (!v.success) throw refuse(v);
  return v;
}

/**
 * Count one use of a per-hour quota (QUOTA_* settings): per hashed user identity when signed in, else per client
 * address. Throws the reference 429 with Retry-After when over.
 */
export async function limitQuota(name: QuotaName, subject: { rateLimitId?: string | null; address: string }): Promise<RateLimitVerdict> {
  const key = subject.rateLimitId ? `quota-user:${subject.rateLimitId}` : `quota-ip:${subject.address}`;
  const v = await rateLimiter().check(name, key);
  if (!v.success) throw refuse(v);
  return v;
}

/** Of several verdicts, the one closest to refusing (its numbers go in the response headers). */
export function tightest(verdicts: RateLimitVerdict[]): RateLimitVerdict | null {
  return verdicts.reduce<RateLimitVerdict | null>((a, b) => (!a || b.remaining < a.remaining ? b : a), null);
}

/** HMAC of a normalised e-mail address under the rate-limit identity secret: counters never hold the address itself. */
export function emailRateLimitIdentityOf(email: string): string {
  const c = config();
  const secret = c.RATE_LIMIT_IDENTITY_SECRET ?? c.SUPABASE_SERVICE_ROLE_KEY ?? "local-rate-limit-identity";
  return createHmac("sha256", secret).update(`email:${email.trim().toLowerCase()}`).digest("hex").slice(0, 32);
}

/**
 * Sign-in and sign-up attempts (security review L4): per client IP (AUTH_RATE_LIMIT_PER_IP_PER_MINUTE) and per
 * hashed e-mail (AUTH_RATE_LIMIT_PER_EMAIL per AUTH_RATE_LIMIT_EMAIL_WINDOW_SECONDS), on top of the general per-IP
 * limit. Throws the reference 429 when either is over; the address is checked first, so a flood from one address does
 * not also lock the accounts it names.
 */
export async function limitCredentialAttempt(address: string, email: string): Promise<void> {
  const byAddress = await rateLimiter().check("authIp", `auth-ip:${address}`);
  if (!byAddress.success) throw refuse(byAddress);
  const byEmail = await rateLimiter().check("authEmail", `auth-email:${emailRateLimitIdentityOf(email)}`);
  if (!byEmail.success) throw refuse(byEmail);
}
