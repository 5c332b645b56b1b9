import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Redis, errors, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";
import { config } from "@/lib/config";

/**
 * The limits store shared by the rate limiter and the guest meter: Upstash Redis over REST (locally the gateway's
 * `/upstash` bridge to a real Redis). `null` when UPSTASH_REDIS_REST_URL/TOKEN are unset.
 *
 * Tuned to fail fast: no retries (the stock client's default is 5 with exponential back-off, which would stall a
 * search for seconds), and every command fails after LIMITS_STORE_TIMEOUT_MS. A failure is then handled by the
 * caller (local fallback limiter, unmetered guest search) instead of being waited out.
 */
export interface StoreSettings {
  url: string;
  token: string;
  timeoutMs: number;
  /** After a failure, skip the store for this long (default LIMITS_STORE_RETRY_MS). */
  retryAfterMs?: number;
}

/**
 * A circuit per store: after a failure the store is not asked again for `retryAfterMs`, so an outage costs one
 * time-out per interval instead of one per request; then one request probes it again.
 */
const circuits = new WeakMap<Redis, { downUntil: number; retryAfterMs: number }>();

export function storeAvailable(store: Redis): boolean {
  const c = circuits.get(store);
  return !c || Date.now() >= c.downUntil;
}

export function reportStoreFailure(store: Redis): void {
  const c = circuits.get(store);
  if (c) c.downUntil = Date.now() + c.retryAfterMs;
}

/**
 * The REST transport of the limits store: one keep-alive connection pool over node:http(s) instead of the client's
 * default global `fetch`. Measured on localhost, a bare fetch round trip cost p50 ~0.37 ms against ~0.05 ms for
 * node:http, and the client's default auto-pipelining (every command deferred two microtasks, then sent as a
 * /pipeline of one) another ~0.1–0.5 ms: per search, limiter + guest meter (bench/limits) went from p50 ~1.8–2.4 ms
 * to ~1.0–1.1 ms measured side by side on a busy box (docs/web-tier.md).
 *
 * What it keeps from the stock client: the REST protocol (`POST <url>[/pipeline|/multi-exec]` with a JSON body, the
 * bearer token), errors thrown as UpstashError with Redis's message (the script helpers look for NOSCRIPT in it), no
 * retries, and a deadline per command that *throws* (never resolves) so the callers' fallbacks decide. What it drops:
 * base64 reply encoding (our keys and values are ASCII counters and ids; replies come as UTF-8 text, the same as
 * `responseEncoding: false`), telemetry headers and read-your-writes sync tokens (one store, no replicas behind the
 * bridge; Upstash's global replication is not used by the limits). A command's text (which can hold a guest session
 * id) is never copied into an error message, unlike the stock client.
 */
export class LimitsStoreTransport implements Requester {
  readonly readYourWrites = false;
  private readonly url: URL;
  private readonly send: typeof httpRequest;
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, token: string, private readonly timeoutMs: number) {
    this.url = new URL(baseUrl.replace(/\/+$/, ""));
    const https = this.url.protocol === "https:";
    this.send = https ? httpsRequest : httpRequest;
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  }

  request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const body = JSON.stringify(req.body);
    const base = this.url.pathname === "/" ? "" : this.url.pathname;
    const path = [base, ...(req.path ?? [])].join("/") || "/";
    return this.attempt<TResult>(path, body, req, true);
  }

  private attempt<TResult>(path: string, body: string, req: UpstashRequest, mayRetry: boolean): Promise<UpstashResponse<TResult>> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener("abort", onAbort);
        f();
      };
      const r: ClientRequest = this.send(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          path,
          method: "POST",
          agent: this.agent,
          headers: { ...this.headers, ...req.headers, "content-length": String(Buffer.byteLength(body)) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", (e) => finish(() => reject(e)));
          res.on("end", () =>
            finish(() => {
              const status = res.statusCode ?? 0;
              let parsed: UpstashResponse<TResult>;
              try {
                parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as UpstashResponse<TResult>;
              } catch {
                reject(new errors.UpstashError(`limits store answered ${status} with a body that is not JSON`));
                return;
              }
              if (status < 200 || status >= 300) reject(new errors.UpstashError(parsed?.error ?? `limits store answered ${status}`));
              else resolve(parsed);
            }),
          );
        },
      );
      const timer = setTimeout(() => r.destroy(new Error(`limits store did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      const onAbort = () => r.destroy(new Error("limits store request aborted"));
      req.signal?.addEventListener("abort", onAbort, { once: true });
      r.on("error", (e: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while idle fails at once, before the command was read: the one
        // case worth one more try (Node's documented pattern), on a fresh socket with its own deadline.
        if (mayRetry && r.reusedSocket && !settled && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
          finish(() => this.attempt<TResult>(path, body, req, false).then(resolve, reject));
          return;
        }
        finish(() => reject(e));
      });
      r.end(body);
    });
  }
}

export function createLimitsStore(s: StoreSettings): Redis {
  // A Requester (not a {url, token} config) also leaves auto-pipelining off: each command goes out at once.
  const store = new Redis(new LimitsStoreTransport(s.url, s.token, s.timeoutMs));
  circuits.set(store, { downUntil: 0, retryAfterMs: s.retryAfterMs ?? config().LIMITS_STORE_RETRY_MS });
  return store;
}

let cached: { key: string; store: Redis | null } | null = null;

/** The configured store (one client per process), or null when none is configured. */
export function limitsStore(): Redis | null {
  const c = config();
  const key = `${c.UPSTASH_REDIS_REST_URL ?? ""}|${c.UPSTASH_REDIS_REST_TOKEN ? "t" : ""}|${c.LIMITS_STORE_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    const store =
      c.UPSTASH_REDIS_REST_URL && c.UPSTASH_REDIS_REST_TOKEN
        ? createLimitsStore({ url: c.UPSTASH_REDIS_REST_URL, token: c.UPSTASH_REDIS_REST_TOKEN, timeoutMs: c.LIMITS_STORE_TIMEOUT_MS })
        : null;
    cached = { key, store };
  }
  return cached.store;
}
