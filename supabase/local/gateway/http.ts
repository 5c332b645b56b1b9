import type { IncomingMessage, ServerResponse } from "node:http";

/** A request body larger than the route allows. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
  }
}

/**
 * Read the whole body as UTF-8, refusing more than `limit` bytes (the socket is drained, not left hanging). Events,
 * not `for await`: the async iterator cost a few percent of the gateway's CPU per RPC for a body of one chunk.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let ended = false;
    req.on("data", (buf: Buffer) => {
      size += buf.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(buf);
    });
    req.on("end", () => {
      ended = true;
      if (tooLarge) reject(new BodyTooLargeError(limit));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
    // The client went away mid-body: no 'end' will come.
    req.on("close", () => {
      if (!ended) reject(new Error("the request body was not read to its end"));
    });
  });
}

/** Parse a JSON body; an empty body is `undefined`. Throws SyntaxError on malformed JSON. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  return JSON.parse(raw) as unknown;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRawJson(res, status, JSON.stringify(body), headers);
}

/** Send text that already is JSON (e.g. produced by Postgres) without parsing it again. */
export function sendRawJson(res: ServerResponse, status: number, json: string, headers: Record<string, string> = {}): void {
  const payload = Buffer.from(json, "utf8");
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(payload.length),
    ...headers,
  });
  res.end(payload);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/** First value of a header (Node joins some repeated headers, others are arrays). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const EXPOSED_HEADERS = ["Content-Range", "X-Total-Count", "Link", "X-Supabase-Api-Version", "Content-Location", "Location"];

/**
 * CORS the way Supabase's API gateway answers it: any origin, the requested headers echoed back. Browsers call
 * /auth/v1 and /rest/v1 directly from the page (createBrowserClient), so preflights must succeed.
 * Returns true when the request was a preflight and has been answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", "));
  if (req.method !== "OPTIONS") return false;
  const requested = header(req, "access-control-request-headers");
  res.writeHead(200, {
    "Access-Control-Allow-Methods": "GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers":
      requested ??
      "authorization, apikey, content-type, x-client-info, x-supabase-api-version, accept-profile, content-profile, prefer, range",
    "Access-Control-Max-Age": "3600",
    "Content-Length": "0",
  });
  res.end();
  return true;
}
