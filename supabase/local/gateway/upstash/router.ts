import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLargeError, header, parseJsonBody, readBody, sendJson } from "../http";
import { bearerToken } from "../tokens";
import { isUpstashPath, RedisUnavailableError, UpstashCommandError, type UpstashBridge } from "../../../../lib/backend/upstash-bridge";

const UPSTASH_BODY_LIMIT = 10 * 1024 * 1024;

function tokenMatches(presented: string | null, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The Upstash REST surface at /upstash: `path` is "" (one command), "/pipeline" or "/multi-exec".
 * `bridge` is null when no Redis answered at start: every call is then a 503, and the app uses process memory.
 */
export async function handleUpstash(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  bridge: UpstashBridge | null,
  token: string,
  log: (l: string) => void,
): Promise<void> {
  if (!tokenMatches(bearerToken(header(req, "authorization")), token)) {
    sendJson(res, 401, { error: "Unauthorized" });
    return;
  }
  if (!bridge) {
    sendJson(res, 503, { error: "Redis is not available to the local gateway (no server answered when it started)" });
    return;
  }
  if (req.method !== "POST") {
    sendJson(res, 405, { error: "ERR only POST with a JSON command body is supported by the local Upstash bridge" });
    return;
  }
  const p = path.replace(/\/+$/, "");
  if (!isUpstashPath(p)) {
    sendJson(res, 404, { error: `ERR unknown endpoint /upstash${p}` });
    return;
  }
  const base64 = (header(req, "upstash-encoding") ?? "").toLowerCase() === "base64";
  let body: unknown;
  try {
    body = parseJsonBody(await readBody(req, UPSTASH_BODY_LIMIT));
  } catch (e) {
    const msg = e instanceof BodyTooLargeError ? "ERR request body too large" : "ERR failed to parse command";
    sendJson(res, e instanceof BodyTooLargeError ? 413 : 400, { error: msg });
    return;
  }
  try {
    sendJson(res, 200, await bridge.rest(p, body, base64));
  } catch (e) {
    if (e instanceof UpstashCommandError) {
      sendJson(res, 400, { error: e.message });
      return;
    }
    if (e instanceof RedisUnavailableError) {
      log(`upstash: Redis unavailable: ${e.message}`);
      sendJson(res, 503, { error: "Redis is not reachable from the local gateway right now" });
      return;
    }
    log(`upstash ${p || "/"} failed: ${(e as Error).message}`);
    sendJson(res, 500, { error: "ERR internal bridge error (details in the gateway log)" });
  }
}
