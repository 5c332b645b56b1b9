/**
 * The transport of the server's PostgREST calls (`/rest/v1/…`: every RPC the backend makes through supabase-js): a
 * `fetch` over node:http(s) with one keep-alive pool per origin, instead of the global fetch. Inside a route handler
 * the global fetch is Next's instrumented wrapper around undici: its tracing span and cache bookkeeping, undici's
 * Request/Response objects and a web-stream body read back in pieces cost ~0.5-0.8 ms of CPU per call on a cited-by
 * request (docs/citations.md, "Speed"), more than the call's own HTTP. The limits store took the same step
 * (lib/backend/rate-limit-store.ts, LimitsStoreTransport).
 *
 * What supabase-js sees is what it saw from fetch: a `Response` with the status, status text, headers and the whole
 * body; a failure to connect or a broken connection throws `TypeError("fetch failed")` with the cause, as undici does
 * (lib/errors/upstream.ts maps that message); an aborted signal rejects with the signal's reason and tears the request
 * down (lib/supabase/timeout.ts turns its deadline's abort into UpstreamTimeoutError). The body is read whole before
 * the Response is made, so a deadline covers the body as it did. A redirect is answered as it is, not followed
 * (PostgREST sends none; following one would send a write twice). Anything it does not carry (a Request object, a
 * non-string body, another path) goes to the global fetch unchanged.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

const agents = new Map<string, HttpAgent>();

function agentFor(url: URL): HttpAgent {
  let agent = agents.get(url.origin);
  if (!agent) {
    agent = url.protocol === "https:" ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    agents.set(url.origin, agent);
  }
  return agent;
}

/** The URL of a call this transport carries itself (else null: it goes to the global fetch). */
export function restCallUrl(input: RequestInfo | URL, init: RequestInit | undefined): URL | null {
  if (typeof input !== "string" && !(input instanceof URL)) return null;
  if (init?.body !== undefined && init.body !== null && typeof init.body !== "string") return null;
  const url = typeof input === "string" ? new URL(input) : input;
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.pathname.startsWith("/rest/v1/") ? url : null;
}

function plainHeaders(init: RequestInit | undefined, body: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const given = init?.headers;
  if (given) new Headers(given).forEach((v, k) => (out[k] = v));
  // fetch's own defaults for what we send; no Accept-Encoding, so the answer comes as it is.
  out["accept"] ??= "*/*";
  if (body !== undefined) {
    out["content-type"] ??= "text/plain;charset=UTF-8";
    out["content-length"] = String(Buffer.byteLength(body));
  }
  return out;
}

function decoded(res: IncomingMessage, raw: Buffer): Buffer {
  const coding = (res.headers["content-encoding"] ?? "identity").toString().trim().toLowerCase();
  if (coding === "gzip" || coding === "x-gzip") return gunzipSync(raw);
  if (coding === "deflate") return inflateSync(raw);
  if (coding === "br") return brotliDecompressSync(raw);
  return raw;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(res: IncomingMessage, status: number, method: string, chunks: Buffer[]): Response {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const body = NULL_BODY.has(status) || method === "HEAD" ? null : decoded(res, Buffer.concat(chunks));
  if (body && headers.has("content-encoding")) {
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  // A view of the bytes as a plain Uint8Array (BodyInit; Node's Buffer type is not one in TypeScript's DOM types).
  const bytes = body ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength) : null;
  return new Response(bytes, { status, statusText: res.statusMessage ?? "", headers });
}

/** A deadline of its own: after `ms` the request is torn down and the call fails with `error()`. */
export interface RestDeadline {
  ms: number;
  error: () => Error;
}

/**
 * One call to `url` (a URL `restCallUrl` accepted). With a deadline, a plain timer bounds it (lib/supabase/timeout.ts:
 * no AbortSignal.timeout per call); a signal in `init` works as well.
 */
export function restRequest(url: URL, init: RequestInit | undefined, deadline?: RestDeadline): Promise<Response> {
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const method = (init?.method ?? "GET").toUpperCase();
  const body = typeof init?.body === "string" ? init.body : undefined;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let current: ReturnType<typeof send> | null = null;
    const timer = deadline
      ? setTimeout(() => {
          current?.destroy();
          finish(() => reject(deadline.error()));
        }, deadline.ms)
      : undefined;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      f();
    };
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      current?.destroy();
      finish(() => reject(reason));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const attempt = (mayRetry: boolean) => {
      const req = send(url, { method, agent: agentFor(url), headers: plainHeaders(init, body) }, (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => finish(() => reject(new TypeError("fetch failed", { cause: e }))));
        res.on("end", () =>
          finish(() => {
            try {
              resolve(toResponse(res, status, method, chunks));
            } catch (e) {
              reject(new TypeError("fetch failed", { cause: e }));
            }
          }),
        );
      });
      current = req;
      req.on("error", (e: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while idle fails at once, before the request was read: the one case
        // worth one more try (Node's documented pattern), on a fresh socket.
        if (mayRetry && req.reusedSocket && !settled && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
          attempt(false);
          return;
        }
        finish(() => reject(new TypeError("fetch failed", { cause: e })));
      });
      req.end(body);
    };
    attempt(true);
  });
};
