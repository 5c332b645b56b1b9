/**
 * How an ApiError becomes an HTTP answer (the HTTP-specific part of errors; codes, statuses and messages live in
 * lib/errors). Two shapes (D-15, R-ERR-003): the service envelope `{detail: {code, message, ...extra}}`, and under
 * `/api/v1` the reference shape `{error, message, details: {code, ...extra}, status_code}`. The rate-limit 429 is the
 * reference body everywhere.
 */
import { ApiError, statusName } from "@/lib/errors";

/**
 * A rate-limit refusal (D-15): the reference body `{error: "RateLimitExceeded", message, retry_after, status_code}`
 * (not the `{detail}` envelope) with `Retry-After` and the `X-RateLimit-*` headers.
 */
export class RateLimitError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    headers: Record<string, string>,
  ) {
    super("RATE_LIMITED", undefined, {}, { ...headers, "Retry-After": String(retryAfterSeconds) });
  }
}

/** The reference API (`/api/v1/**`) renders errors in the reference shape (D-15, R-ERR-003). */
export function isReferencePath(pathname: string): boolean {
  return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
}

/** The reference `error` name of a status, from the catalogue's table (R-ERR-003). */
export const referenceErrorName = statusName;

/**
 * An ApiError as the answer for `pathname`: the envelope, or under /api/v1 the reference shape — validation errors list
 * the offending fields in `details.fields` (R-ERR-031). Every 429 keeps its own body (the guest 429 is an envelope with
 * `upgrade_url`, D-15).
 */
export function errorResponse(e: ApiError, pathname: string): Response {
  if (e instanceof RateLimitError) {
    return Response.json(
      { error: statusName(e.status), message: e.message, retry_after: e.retryAfterSeconds, status_code: e.status },
      { status: e.status, headers: e.headers },
    );
  }
  if (e.status === 429 || !isReferencePath(pathname)) {
    return Response.json({ detail: { code: e.code, message: e.message, ...e.extra } }, { status: e.status, headers: e.headers });
  }
  return Response.json(
    { error: statusName(e.status), message: e.message, details: { code: e.code, ...e.extra }, status_code: e.status },
    { status: e.status, headers: e.headers },
  );
}
