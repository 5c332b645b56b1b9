import type { IncomingMessage, ServerResponse } from "node:http";
import { header, sendJson } from "../http";

/** GoTrue's request/response API version header (auth-js sends it on every call). */
export const API_VERSION_HEADER = "X-Supabase-Api-Version";
const API_VERSION_2024_01_01 = Date.parse("2024-01-01T00:00:00Z");

/**
 * An error answered in GoTrue's shape. `code` is GoTrue's error code (`invalid_credentials`, `weak_password`, ...):
 * auth-js turns it into `AuthApiError.code`, and a few codes into dedicated error classes.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly weakPasswordReasons?: string[],
  ) {
    super(message);
  }
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);

export function weakPasswordError(minLength: number): AuthError {
  return new AuthError(422, "weak_password", `Password should be at least ${minLength} characters.`, ["length"]);
}

/** True when the caller asked for API version 2024-01-01 or later (a date header GoTrue parses). */
export function wantsVersion20240101(req: IncomingMessage): boolean {
  const v = header(req, API_VERSION_HEADER);
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return Number.isFinite(t) && t >= API_VERSION_2024_01_01;
}

/**
 * Write `err` as GoTrue does (internal/api/errors.go HandleResponseError): with API version 2024-01-01 the body is
 * `{code, message}` and the version header is echoed; otherwise the legacy `{code: <status>, error_code, msg}`.
 * Weak passwords add `weak_password: {reasons}`.
 */
export function sendAuthError(req: IncomingMessage, res: ServerResponse, err: AuthError): void {
  const extra = err.weakPasswordReasons ? { weak_password: { reasons: err.weakPasswordReasons } } : {};
  if (wantsVersion20240101(req)) {
    sendJson(res, err.status, { code: err.code, message: err.message, ...extra }, { [API_VERSION_HEADER]: "2024-01-01" });
  } else {
    sendJson(res, err.status, { code: err.status, error_code: err.code, msg: err.message, ...extra });
  }
}
