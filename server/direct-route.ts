import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import { NextRequest, NextResponse } from "next/server";
import { directGet, type DirectHandler } from "../lib/api/direct-routes";
import { inDirectScope, type DirectScope } from "../lib/request-scope";
import { errorResponse } from "../lib/api/errors";
import { ApiError } from "../lib/errors";
import { logger } from "../lib/logger";
import { API_ANSWER_HEADERS, everyAnswerHeaders } from "../lib/security-headers";
import { COMPRESS_MIN_BYTES, pickCoding } from "./content-coding";

const gzip = promisify(gzipCallback);

/**
 * The directly served handler for this request (lib/api/direct-routes.ts), or undefined: only a GET whose raw path is
 * exactly a registered one (no trailing slash, no encoding, no `..`: Next normalises those, so they go to Next).
 */
export function directHandlerFor(req: IncomingMessage): DirectHandler | undefined {
  if (req.method !== "GET" || !req.url?.startsWith("/api/")) return undefined;
  const q = req.url.indexOf("?");
  return directGet(q < 0 ? req.url : req.url.slice(0, q));
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

function requestOf(req: IncomingMessage): NextRequest | null {
  try {
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
    // The path and query come from the request line; a Host that is not a plain host[:port] must not move them.
    const host = req.headers.host && HOST.test(req.headers.host) ? req.headers.host : "localhost";
    return new NextRequest(`http://${host}${req.url}`, { method: "GET", headers });
  } catch {
    return null; // A Host or header the URL and Headers classes refuse: Next answers it its own way.
  }
}

/** The headers next.config.ts gives every API answer, made once per server (serveDirect copies them per answer). */
export function directAnswerHeaders(production: boolean): Readonly<Record<string, string>> {
  return Object.fromEntries([...everyAnswerHeaders(production), ...API_ANSWER_HEADERS].map(({ key, value }) => [key, value]));
}

/**
 * Serve one request with its directly registered handler; answers false (having written nothing) when the request
 * cannot be mapped, so the caller hands it to Next.
 */
export async function serveDirect(
  handler: DirectHandler,
  req: IncomingMessage,
  res: ServerResponse,
  answerHeaders: Readonly<Record<string, string>>,
): Promise<boolean> {
  const request = requestOf(req);
  if (!request) return false;
  // Cookie writes (a refreshed session) go out as Set-Cookie, as they would through Next's cookies().
  // Made on the first cookie write only: most requests write none.
  const jar: { response: NextResponse | null } = { response: null };
  const scope: DirectScope = {
    after: [],
    texts: new WeakMap(),
    cookies: {
      getAll: () => request.cookies.getAll(),
      set: (name, value, options) => {
        (jar.response ??= NextResponse.next()).cookies.set(name, value, options);
        request.cookies.set(name, value);
      },
    },
  };
  let response: Response;
  try {
    response = await inDirectScope(scope, () => handler(request));
  } catch (e) {
    // withRoute answers every error itself; this is a bug in the dispatcher's own path, answered like withRoute would.
    logger.error({ err: e instanceof Error ? e.message : String(e), path: request.nextUrl.pathname }, "direct route failed");
    response = errorResponse(new ApiError("INTERNAL_ERROR"), request.nextUrl.pathname);
  }
  // A text answer (textResponse) comes beside its Response, not as a body stream to read back.
  const text = scope.texts.get(response);
  let body: Buffer | string = text ?? Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = { ...answerHeaders };
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = [...response.headers.getSetCookie(), ...(jar.response?.headers.getSetCookie() ?? [])];
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  headers.vary = "Accept-Encoding";
  let length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (length >= COMPRESS_MIN_BYTES && !headers["content-encoding"] && pickCoding(req.headers["accept-encoding"], { br: false, gzip: true }) === "gzip") {
    body = await gzip(body);
    length = body.length;
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = String(length);
  res.writeHead(response.status, headers);
  res.end(body);
  // after(): once the answer is on its way, as Next runs it; a failing task is logged, never surfaced.
  if (scope.after.length > 0) {
    res.once("close", () => {
      for (const task of scope.after) {
        void Promise.resolve()
          .then(task)
          .catch((e: unknown) => logger.error({ err: e instanceof Error ? e.message : String(e) }, "after-response task failed"));
      }
    });
  }
  return true;
}
