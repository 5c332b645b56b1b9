import { config } from "@/lib/config";
import { rateLimiter, type RateLimitVerdict, type RuleName } from "@/lib/backend/rate-limit";
import { clientAddressOf, type ClientAddress } from "./client-address";
import { RateLimitError } from "./errors";

/**
 * The per-route limit (D-21): "search" = GET /api/search/documents, per client IP (SEARCH_DOCUMENTS_RATE_LIMIT);
 * "general" (the default) = 100/min per IP, plus 1000/h per API key when one is presented; "none" only for routes
 * that must answer whatever the load (none today).
 */
export type RateLimitPolicy = "search" | "general" | "none";

export function clientAddress(req: Request): ClientAddress {
  return clientAddressOf(req.headers, config().TRUSTED_PROXY);
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

/** Count this request against the per-IP rule of `policy`; throws the 429 when over. Returns the verdict for headers. */
export async function limitByAddress(policy: Exclude<RateLimitPolicy, "none">, address: string): Promise<RateLimitVerdict> {
  const rule: RuleName = policy === "search" ? "search" : "ip";
  const v = await rateLimiter().check(rule, `ip:${address}`);
  if (!v.success) throw refuse(v);
  return v;
}

/** Count this request against the hourly limit of its API key (D-21); throws the 429 when over. */
export async function limitByApiKey(apiKeyId: string): Promise<RateLimitVerdict> {
  const v = await rateLimiter().check("apiKey", `key:${apiKeyId}`);
  if (!v.success) throw refuse(v);
  return v;
}

/** Of several verdicts, the one closest to refusing (its numbers go in the response headers). */
export function tightest(verdicts: RateLimitVerdict[]): RateLimitVerdict | null {
  return verdicts.reduce<RateLimitVerdict | null>((a, b) => (!a || b.remaining < a.remaining ? b : a), null);
}
