/**
 * The mappers of upstream failures to ApiErrors: `fromDatabaseError` for every supabase-js database call (PostgREST
 * errors and the SQLSTATEs our own functions raise), `fromAuthError` / `authOutage` for Supabase Auth. SQL text and
 * upstream internals never reach a client: only the messages our own SQL raises on purpose are passed on.
 */
import { isUpstreamTimeoutMessage } from "./timeout";
import { ApiError, authUnavailable, databaseUnavailable, unauthorized, upstreamTimeout } from "./api-error";
import type { ErrorCode } from "./catalogue";

/** A PostgREST-style error as supabase-js returns it. */
export interface DatabaseError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

/**
 * PostgREST's own codes for "no database behind me": PGRST000 (cannot connect), PGRST001 (connection broken /
 * client error), PGRST002 (schema cache cannot be built), PGRST003 (timed out waiting for a pool connection).
 */
const POSTGREST_UNAVAILABLE = new Set(["PGRST000", "PGRST001", "PGRST002", "PGRST003"]);
/** Admin shutdown, crash shutdown, cannot connect now, too many connections. */
const SERVER_UNAVAILABLE = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * The one mapping of database failures (D-15, D-31, M3). `status` is the HTTP status supabase-js reported (0 when no
 * answer came); `fallback` names what failed when nothing more specific is known.
 *
 * - our SQL's SQLSTATEs (supabase/migrations: structured search, collections; the field is in DETAIL):
 *   SF001 → 422 FILTER_INVALID (D-06), SF002 → 422 FIELD_NOT_AGGREGABLE, SF003 / 22023 → 422 VALIDATION_ERROR,
 *   SC001 → 404 COLLECTION_NOT_FOUND (D-30), SC002 → 404 DOCUMENT_NOT_FOUND with the ids, SA001 → 409
 *   ALERT_EMAIL_UNCONFIRMED (an alert switched on for an unconfirmed address);
 * - no row where one was required (P0002, PGRST116) → 404 NOT_FOUND;
 * - 504 UPSTREAM_TIMEOUT: statement time-out (57014) or the call's own deadline (`UPSTREAM_TIMEOUT_MS`) ran out;
 * - 503 DATABASE_UNAVAILABLE: PGRST000-003, any 503 from PostgREST/the gateway, class 08 (connection exception),
 *   57P01-57P03, 53300, or no answer at all;
 * - 401/403 for JWT and privilege errors; anything else → `fallback` (a 500 code).
 */
export function fromDatabaseError(err: DatabaseError | null, fallback: ErrorCode = "DATABASE_ERROR", status?: number): ApiError {
  const code = err?.code ?? "";
  const message = err?.message ?? "";
  const field = err?.details ?? "";
  switch (code) {
    case "SF001":
      return new ApiError("FILTER_INVALID", message || undefined, { field });
    case "SF002":
      return new ApiError("FIELD_NOT_AGGREGABLE", message || undefined, { field });
    case "SF003":
    case "22023":
      return new ApiError("VALIDATION_ERROR", message || undefined, { fields: [{ field, message }] });
    case "SC001":
      return new ApiError("COLLECTION_NOT_FOUND");
    case "SA001":
      return new ApiError("ALERT_EMAIL_UNCONFIRMED");
    case "SC002":
      return new ApiError("DOCUMENT_NOT_FOUND", "Some documents do not exist.", { document_ids: field ? field.split(",") : [] });
    case "P0002":
    case "PGRST116":
      return new ApiError("NOT_FOUND");
    case "42501":
      return new ApiError("FORBIDDEN", "Permission denied.");
    case "PGRST301":
    case "PGRST302":
    case "PGRST303":
      return unauthorized();
  }
  if (code === "57014" || (code === "" && isUpstreamTimeoutMessage(message))) return upstreamTimeout();
  if (POSTGREST_UNAVAILABLE.has(code) || code.startsWith("08") || SERVER_UNAVAILABLE.has(code)) return databaseUnavailable();
  if (status === 503) return databaseUnavailable();
  if (code === "" && (status === 0 || /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|network/i.test(message))) {
    return databaseUnavailable();
  }
  return new ApiError(fallback);
}

/** What auth-js reports (`AuthError` and its subclasses). */
export interface AuthErrorLike {
  status?: number;
  code?: string;
  message?: string;
  name?: string;
}

/** Supabase Auth codes passed on upper-cased (P-06); each has its own entry, and status, in the catalogue. */
const AUTH_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "INVALID_CREDENTIALS",
  "EMAIL_NOT_CONFIRMED",
  "USER_BANNED",
  "USER_ALREADY_EXISTS",
  "EMAIL_EXISTS",
  "WEAK_PASSWORD",
  "SIGNUP_DISABLED",
  "VALIDATION_FAILED",
  "OVER_REQUEST_RATE_LIMIT",
  "OVER_EMAIL_SEND_RATE_LIMIT",
]);

function isAuthCode(code: string): code is ErrorCode {
  return (AUTH_CODES as ReadonlySet<string>).has(code);
}

/** A time-out (504) or an unreachable / broken auth server (503); null when the server gave a real answer. */
function authServerFailure(error: AuthErrorLike, unavailable: () => ApiError): ApiError | null {
  if (isUpstreamTimeoutMessage(error.message) || /aborted due to timeout/i.test(error.message ?? "")) {
    return upstreamTimeout("The sign-in service");
  }
  const status = error.status;
  if (status === 0 || (typeof status === "number" && status >= 500) || error.name === "AuthUnknownError") return unavailable();
  return null;
}

/**
 * An auth-server failure that says nothing about the caller (M3, M4): the call ran out of time → 504
 * UPSTREAM_TIMEOUT; no answer (status 0: refused, reset, DNS), a 5xx, or an answer auth-js could not read → 503
 * AUTH_UNAVAILABLE. Null for a real verdict on the token (expired, bad signature, signed out: 4xx), which leaves the
 * caller anonymous, so an outage never signs a visitor out.
 */
export function authOutage(error: AuthErrorLike): ApiError | null {
  return authServerFailure(error, authUnavailable);
}

/**
 * A refused sign-up / sign-in (P-06): an outage as `authOutage`; a known Supabase Auth code upper-cased
 * (`invalid_credentials` → 400 INVALID_CREDENTIALS) with the status the catalogue gives it; any other refusal →
 * 400 AUTH_REJECTED carrying Supabase's code in `auth_code`.
 */
export function fromAuthError(error: AuthErrorLike): ApiError {
  const outage = authServerFailure(error, () => new ApiError("AUTH_UNAVAILABLE"));
  if (outage) return outage;
  if (typeof error.status !== "number" || error.status < 400) return new ApiError("AUTH_UNAVAILABLE");
  const code = (error.code ?? "").toUpperCase();
  if (isAuthCode(code)) return new ApiError(code, error.message || undefined);
  return new ApiError("AUTH_REJECTED", error.message || undefined, { auth_code: error.code ?? null });
}
