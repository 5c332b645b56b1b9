import type { IncomingMessage } from "node:http";
import { BodyTooLargeError, isPlainObject, parseJsonBody, readBody } from "../http";
import { AuthError, badRequest } from "./errors";

const AUTH_BODY_LIMIT = 1024 * 1024;

/** The JSON object body of an auth request; an empty body is `{}` (GoTrue decodes into a zero-valued struct). */
export async function readAuthBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = await readBody(req, AUTH_BODY_LIMIT);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new AuthError(413, "request_too_large", "Request body too large");
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = parseJsonBody(raw);
  } catch (e) {
    throw badRequest("bad_json", `Could not parse request body as JSON: ${(e as Error).message}`);
  }
  if (parsed === undefined || parsed === null) return {};
  if (!isPlainObject(parsed)) throw badRequest("bad_json", "Could not parse request body as JSON: expected an object");
  return parsed;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw badRequest("bad_json", `Could not parse request body as JSON: ${key} must be a string`);
  return v;
}

export function optionalObject(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) throw badRequest("bad_json", `Could not parse request body as JSON: ${key} must be an object`);
  return v;
}

export function optionalBoolean(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw badRequest("bad_json", `Could not parse request body as JSON: ${key} must be a boolean`);
  return v;
}
