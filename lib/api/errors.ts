import { isUpstreamTimeoutMessage } from "@/lib/supabase/timeout";

/** An error with a stable code, rendered as the envelope `{detail: {code, message, ...extra}}` (D-15). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  toResponse(): Response {
    return Response.json({ detail: { code: this.code, message: this.message, ...this.extra } }, { status: this.status, headers: this.headers });
  }
}

export const unauthorized = () => new ApiError(401, "UNAUTHORIZED", "Sign in to use this endpoint.");
export const forbidden = () => new ApiError(403, "FORBIDDEN", "You do not have permission to use this endpoint.");
export const notFound = (what = "Resource") => new ApiError(404, "NOT_FOUND", `${what} not found.`);

export const databaseUnavailable = (message = "The database is unavailable. Try again shortly.") =>
  new ApiError(503, "DATABASE_UNAVAILABLE", message);
export const authUnavailable = () =>
  new ApiError(503, "AUTH_UNAVAILABLE", "The sign-in service is unavailable, so your session could not be checked. Try again shortly.");
export const upstreamTimeout = (what = "The database") => new ApiError(504, "UPSTREAM_TIMEOUT", `${what} took too long to answer.`);

/**
 * PostgREST's own codes for "no database behind me": PGRST000 (cannot connect), PGRST001 (connection broken /
 * client error), PGRST002 (schema cache cannot be built), PGRST003 (timed out waiting for a pool connection).
 */
const POSTGREST_UNAVAILABLE = new Set(["PGRST000", "PGRST001", "PGRST002", "PGRST003"]);

/**
 * Map a PostgREST-style error from supabase-js (`{code, message, details, hint}`) to an ApiError without leaking SQL.
 * `status` is the HTTP status supabase-js reported (0 when no answer came). The one mapping of database failures:
 * every module that turns a supabase-js error into an API error goes through here (D-15, D-31, M3).
 *
 * - 504 UPSTREAM_TIMEOUT: statement time-out (57014) or the call's own deadline (`UPSTREAM_TIMEOUT_MS`) ran out;
 * - 503 DATABASE_UNAVAILABLE: PGRST000-003, any 503 from PostgREST/the gateway, class 08 (connection exception),
 *   57P01-57P03 (admin shutdown, crash, cannot connect now), 53300 (too many connections), or no answer at all;
 * - 401/403 for JWT and privilege errors; anything else → 500 `fallbackCode`.
 */
export function fromPostgrestError(
  err: { code?: string; message?: string } | null,
  fallbackCode = "DATABASE_ERROR",
  status?: number,
): ApiError {
  const code = err?.code ?? "";
  const message = err?.message ?? "";
  if (code === "42501") return new ApiError(403, "FORBIDDEN", "Permission denied.");
  if (code === "PGRST301" || code === "PGRST302" || code === "PGRST303") return unauthorized();
  if (code === "57014" || (code === "" && isUpstreamTimeoutMessage(message))) return upstreamTimeout();
  if (POSTGREST_UNAVAILABLE.has(code) || code.startsWith("08") || ["57P01", "57P02", "57P03", "53300"].includes(code)) {
    return databaseUnavailable();
  }
  if (status === 503) return databaseUnavailable();
  if (code === "" && (status === 0 || /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|network/i.test(message))) {
    return databaseUnavailable();
  }
  return new ApiError(500, fallbackCode, "The database call failed.");
}

/**
 * An auth-server failure that says nothing about the caller (M3, M4): the call ran out of time → 504
 * UPSTREAM_TIMEOUT; no answer (status 0: refused, reset, DNS), a 5xx, or an answer auth-js could not read → 503
 * AUTH_UNAVAILABLE. Null for a real verdict on the token (expired, bad signature, signed out: 4xx), which leaves the
 * caller anonymous. Before this, every such error made a signed-in caller anonymous, so writes answered 401 and the
 * UI showed "signed out" during an outage.
 */
export function authOutage(error: { status?: number; message?: string; name?: string }): ApiError | null {
  if (isUpstreamTimeoutMessage(error.message) || /aborted due to timeout/i.test(error.message ?? "")) {
    return upstreamTimeout("The sign-in service");
  }
  const status = error.status;
  if (status === 0 || (typeof status === "number" && status >= 500) || error.name === "AuthUnknownError") return authUnavailable();
  return null;
}

/**
 * A rate-limit refusal (D-15): the reference body `{error: "RateLimitExceeded", message, retry_after, status_code}`
 * (not the `{detail}` envelope) with `Retry-After` and the `X-RateLimit-*` headers.
 */
export class RateLimitError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    headers: Record<string, string>,
  ) {
    super(429, "RATE_LIMITED", "Too many requests. Try again later.", {}, { ...headers, "Retry-After": String(retryAfterSeconds) });
  }

  override toResponse(): Response {
    return Response.json(
      { error: "RateLimitExceeded", message: this.message, retry_after: this.retryAfterSeconds, status_code: 429 },
      { status: 429, headers: this.headers },
    );
  }
}
