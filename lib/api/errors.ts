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

/** Map a PostgREST-style error from supabase-js (`{code, message, details, hint}`) to an ApiError without leaking SQL. */
export function fromPostgrestError(err: { code?: string; message?: string } | null, fallbackCode = "DATABASE_ERROR"): ApiError {
  const code = err?.code ?? "";
  if (code === "42501") return new ApiError(403, "FORBIDDEN", "Permission denied.");
  if (code === "PGRST301" || code === "PGRST302") return unauthorized();
  if (code === "57014") return new ApiError(504, "UPSTREAM_TIMEOUT", "The database took too long to answer.");
  if (code === "" && /fetch failed|ECONNREFUSED|network/i.test(err?.message ?? "")) {
    return new ApiError(503, "DATABASE_UNAVAILABLE", "The database is unavailable.");
  }
  return new ApiError(500, fallbackCode, "The database call failed.");
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
