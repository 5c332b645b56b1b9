import { createHash } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Redis, errors, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { isUpstashPath, UpstashBridge, UpstashCommandError } from "./upstash-bridge";
import { withinDeadline } from "./deadline";

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

/**
 * The limits store's transport over a direct Redis connection (LIMITS_REDIS_URL; `npm start` sets it to the Redis the
 * gateway's bridge uses): the same Upstash commands, translated in process by the bridge's code (upstash-bridge.ts)
 * instead of over HTTP to the gateway and from there to Redis. One hop instead of two on every limiter and guest-meter
 * call. Same contract as LimitsStoreTransport: Redis's refusals thrown as UpstashError with
 * Redis's message, a deadline per command that throws, no retries.
 */
export class RedisBridgeTransport implements Requester {
  readonly readYourWrites = false;

  constructor(
    private readonly bridge: UpstashBridge,
    private readonly timeoutMs: number,
  ) {}

  request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    return storeDeadline(this.run(req), this.timeoutMs) as Promise<UpstashResponse<TResult>>;
  }

  private async run(req: UpstashRequest): Promise<unknown> {
    const path = req.path?.length ? `/${req.path.join("/")}` : "";
    if (!isUpstashPath(path)) throw new errors.UpstashError(`ERR unsupported limits store request ${path}`);
    return this.bridge.rest(path, req.body, false).catch(asUpstashError);
  }
}

/** The direct store's deadline: a store that does not answer in time is a store failure (the fallback decides). */
function storeDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return withinDeadline(work, ms, `limits store did not answer within ${ms} ms`);
}

/** Redis refused the command: what the REST API answers with 400 and the stock client throws as UpstashError. */
function asUpstashError(e: unknown): never {
  throw e instanceof UpstashCommandError ? new errors.UpstashError(e.message) : e;
}

export function createLimitsStore(s: StoreSettings): Redis {
  // A Requester (not a {url, token} config) also leaves auto-pipelining off: each command goes out at once.
  const store = new Redis(new LimitsStoreTransport(s.url, s.token, s.timeoutMs));
  circuits.set(store, { downUntil: 0, retryAfterMs: s.retryAfterMs ?? config().LIMITS_STORE_RETRY_MS });
  return store;
}

/** The connection and deadline of each direct store, for the script calls that skip the REST client. */
const direct = new WeakMap<Redis, { bridge: UpstashBridge; timeoutMs: number }>();

/** A limits store on a direct Redis connection (see RedisBridgeTransport). */
export function createDirectLimitsStore(s: { redisUrl: string; timeoutMs: number; retryAfterMs?: number }): Redis {
  const bridge = UpstashBridge.lazy(s.redisUrl, (line) => logger.warn({ redis: redactedUrl(s.redisUrl) }, line.replace(s.redisUrl, redactedUrl(s.redisUrl))));
  const store = new Redis(new RedisBridgeTransport(bridge, s.timeoutMs));
  circuits.set(store, { downUntil: 0, retryAfterMs: s.retryAfterMs ?? config().LIMITS_STORE_RETRY_MS });
  direct.set(store, { bridge, timeoutMs: s.timeoutMs });
  return store;
}

/** A Lua script bound to its store, as `Redis.createScript` gives one: run it on keys and arguments. */
export type StoreScript = (keys: string[], args: string[]) => Promise<unknown>;

/**
 * `script` on `store`. On a direct store it runs on the store's own connection (its SHA-1 computed once, here),
 * without the REST client's chain of promises (one round trip, no extra ticks per call). Same
 * contract as RedisBridgeTransport: Redis's refusals thrown as UpstashError with Redis's message, a deadline that
 * throws, no retries. On a REST store it is the client's own script (EVALSHA, EVAL on NOSCRIPT).
 */
export function storeScript(store: Redis, script: string): StoreScript {
  const d = direct.get(store);
  if (!d) {
    const viaClient = store.createScript<unknown>(script);
    return (keys, args) => viaClient.exec(keys, args);
  }
  const sha = createHash("sha1").update(script).digest("hex");
  return (keys, args) => storeDeadline(d.bridge.evalScript(sha, script, keys, args).catch(asUpstashError), d.timeoutMs);
}

/** A Redis URL without its password, for logs. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

let cached: { key: string; store: Redis | null } | null = null;

/**
 * The configured store (one client per process), or null when none is configured: a direct Redis connection when
 * LIMITS_REDIS_URL is set, else Upstash over REST (UPSTASH_REDIS_REST_URL/TOKEN).
 */
export function limitsStore(): Redis | null {
  const c = config();
  const key = `${c.LIMITS_REDIS_URL ?? ""}|${c.UPSTASH_REDIS_REST_URL ?? ""}|${c.UPSTASH_REDIS_REST_TOKEN ? "t" : ""}|${c.LIMITS_STORE_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    const store = c.LIMITS_REDIS_URL
      ? createDirectLimitsStore({ redisUrl: c.LIMITS_REDIS_URL, timeoutMs: c.LIMITS_STORE_TIMEOUT_MS })
      : c.UPSTASH_REDIS_REST_URL && c.UPSTASH_REDIS_REST_TOKEN
        ? createLimitsStore({ url: c.UPSTASH_REDIS_REST_URL, token: c.UPSTASH_REDIS_REST_TOKEN, timeoutMs: c.LIMITS_STORE_TIMEOUT_MS })
        : null;
    cached = { key, store };
  }
  return cached.store;
}
