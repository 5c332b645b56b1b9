import { Redis } from "@upstash/redis";
import { config } from "@/lib/config";

/**
 * The limits store shared by the rate limiter and the guest meter: Upstash Redis over REST (locally the gateway's
 * `/upstash` bridge to a real Redis). `null` when UPSTASH_REDIS_REST_URL/TOKEN are unset.
 *
 * Tuned to fail fast: no retries (the default is 5 with exponential back-off, which would stall a search for
 * seconds), and every command aborts after LIMITS_STORE_TIMEOUT_MS. A failure is then handled by the caller
 * (local fallback limiter, unmetered guest search) instead of being waited out.
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

export function createLimitsStore(s: StoreSettings): Redis {
  const store = new Redis({
    url: s.url,
    token: s.token,
    retry: false,
    enableTelemetry: false,
    // A function gives each command its own deadline; an aborted command then throws instead of resolving.
    signal: () => AbortSignal.timeout(s.timeoutMs),
    keepAlive: true,
  });
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
