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
}

export function createLimitsStore(s: StoreSettings): Redis {
  return new Redis({
    url: s.url,
    token: s.token,
    retry: false,
    enableTelemetry: false,
    // A function gives each command its own deadline; an aborted command then throws instead of resolving.
    signal: () => AbortSignal.timeout(s.timeoutMs),
    keepAlive: true,
  });
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
