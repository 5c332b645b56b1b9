import { ERRORS, type ErrorCode } from "./catalogue";

/**
 * An error with a stable code from the catalogue; the HTTP status comes from the code, never from the caller (so one
 * code cannot answer with two statuses). `extra` joins the envelope (`{detail: {code, message, ...extra}}`, D-15);
 * `headers` go on the answer. Rendering is lib/api/errors.ts's job.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERRORS[code].status;
  }
}

export const unauthorized = () => new ApiError("UNAUTHORIZED");
export const forbidden = () => new ApiError("FORBIDDEN");
export const notFound = (what = "Resource") => new ApiError("NOT_FOUND", `${what} not found.`);
export const databaseUnavailable = (message?: string) => new ApiError("DATABASE_UNAVAILABLE", message);
export const authUnavailable = () =>
  new ApiError("AUTH_UNAVAILABLE", "The sign-in service is unavailable, so your session could not be checked. Try again shortly.");
export const upstreamTimeout = (what = "The database") => new ApiError("UPSTREAM_TIMEOUT", `${what} took too long to answer.`);
