import type { ServerResponse } from "node:http";
import { isConnectionError } from "../db";
import { sendJson } from "../http";

/** PostgREST's error body: `{code, message, details, hint}` (always all four keys, nulls included). */
export interface PgrstErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export class PgrstError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): PgrstErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export function sendPgrstError(res: ServerResponse, err: PgrstError): void {
  // PostgREST names the error in Proxy-Status so proxies can log it without reading the body.
  sendJson(res, err.status, err.body(), { "Proxy-Status": `PostgREST; error=${err.code}`, ...err.headers });
}

/**
 * HTTP status for a SQLSTATE, mirroring PostgREST's mapSQLtoHTTP (src/PostgREST/Error.hs) and its documented table:
 * https://docs.postgrest.org/en/latest/references/errors.html#http-status-codes. `authenticated` means the request
 * ran as a role other than anon (42501 is 401 for anon so clients sign in, 403 otherwise).
 */
export function statusForSqlState(code: string, message: string, authenticated: boolean): number {
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    "57P01": 503,
    P0001: 400,
    "42883": 404,
    "42P01": 404,
    "42P17": 500,
  };
  if (code === "42501") return authenticated ? 403 : 401;
  if (code === "21000") return message.endsWith("requires a WHERE clause") ? 400 : 500;
  if (code === "22023") return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
  if (exact[code] !== undefined) return exact[code];
  if (code.startsWith("PT")) {
    // RAISE SQLSTATE 'PTxyz' chooses the status xyz; anything not a valid status is a 500.
    const n = Number(code.slice(2));
    return Number.isInteger(n) && n >= 100 && n <= 599 ? n : 500;
  }
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 500,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/**
 * Whether the database's own text may reach the client. PostgREST forwards every message; we keep them for client
 * errors (4xx), for codes a function raised on purpose (PTxxx) and for statement time-outs, and replace the text of
 * other server errors (internal errors, subquery cardinality, ...) with a generic one: those describe our SQL, not
 * the caller's request. The full error is logged.
 */
export function exposesMessage(code: string, status: number): boolean {
  return status < 500 || code.startsWith("PT") || code === "57014";
}

/**
 * PostgREST's answer when no connection could be had, or null for any other error: every pooled connection stayed
 * busy past the pool's connection time-out (node-postgres: "timeout exceeded when trying to connect") → 504 PGRST003;
 * the database refused, reset or did not answer a new connection → 503 PGRST000.
 */
export function connectionFailure(e: unknown): PgrstError | null {
  if (e instanceof Error && e.message === "timeout exceeded when trying to connect") {
    return new PgrstError(504, "PGRST003", "Timed out acquiring connection from connection pool.");
  }
  if (isConnectionError(e)) return new PgrstError(503, "PGRST000", "Database connection error. Retrying the connection.");
  return null;
}
