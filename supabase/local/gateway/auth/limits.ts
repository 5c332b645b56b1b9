import type { IncomingMessage } from "node:http";
import type { UpstashBridge } from "../../../../lib/backend/upstash-bridge";
import { AuthError } from "./errors";

/**
 * Sign-ups per client address in fixed windows, counted by the Auth server itself as GoTrue does (Supabase: 30 per
 * 5 minutes per IP), so a caller that skips the app's own limits still meets one. The address is the TCP peer's: the
 * local gateway has no proxy in front of it, so a forwarded-for header would only be the caller's own claim.
 * Counted in Redis (through the Upstash bridge, shared by every gateway on that Redis) when one answers, else in this
 * process; a Redis that fails mid-way falls back to the process count rather than refusing every sign-up.
 */
export interface SignupLimiter {
  /** Count one attempt from `req`'s address; throws 429 over_request_rate_limit past the limit. */
  hit(req: IncomingMessage): Promise<void>;
}

export interface SignupLimit {
  limit: number;
  windowSeconds: number;
  /** Redis key prefix (a test gateway uses its own). */
  keyPrefix?: string;
}

export function clientAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
}

export function createSignupLimiter(o: SignupLimit, bridge: UpstashBridge | null, log: (line: string) => void): SignupLimiter {
  const memory = new Map<string, number>();
  const prefix = o.keyPrefix ?? "gateway:auth:signup";
  const countInMemory = (key: string): number => {
    if (memory.size > 10_000) memory.clear(); // a bound: keys of past windows are never read again
    const n = (memory.get(key) ?? 0) + 1;
    memory.set(key, n);
    return n;
  };
  return {
    async hit(req) {
      const window = Math.floor(Date.now() / 1000 / o.windowSeconds);
      const key = `${prefix}:${window}:${clientAddress(req)}`;
      let count: number;
      if (bridge?.ready) {
        try {
          const replies = (await bridge.rest("/multi-exec", [["INCR", key], ["EXPIRE", key, String(o.windowSeconds)]], false)) as { result?: unknown }[];
          count = Number(replies[0]?.result);
        } catch (e) {
          log(`sign-up limit: Redis failed (${(e as Error).message}); counting in process`);
          count = countInMemory(key);
        }
      } else {
        count = countInMemory(key);
      }
      if (count > o.limit) throw new AuthError(429, "over_request_rate_limit", "Request rate limit reached");
    },
  };
}
