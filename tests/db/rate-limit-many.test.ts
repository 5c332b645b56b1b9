import { randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, it } from "vitest";
import { RateLimiter, type RuleSpec } from "@/lib/backend/rate-limit";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { stackEnv } from "../helpers/stack";

/**
 * RateLimiter.checkAll (issue 20: the per-IP and per-user limits in one store round trip) against the real limits
 * store, the stack's Upstash bridge over a real Redis: the same sliding window and the same keys as `check`
 * (@upstash/ratelimit's slidingWindow), the walk stopping at the first refusal, and the same verdicts as the
 * process-memory limiter for the same sequence.
 */
const WINDOW_MS = 60_000;
const rules = (limit: number): Record<"search" | "ip" | "apiKey", RuleSpec> => ({
  search: { limit, windowSeconds: 60 },
  ip: { limit, windowSeconds: 60 },
  apiKey: { limit: 1000, windowSeconds: 3600 },
});

let store: Redis;

beforeAll(() => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  store = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
});

/** A limiter on the real store with a clock the test sets and a prefix of its own. */
function limiter(limit: number, clock: { t: number }, withStore = true) {
  return new RateLimiter({
    store: withStore ? store : null,
    rules: rules(limit),
    fallback: { perMinute: 1000, perHour: 10_000 },
    prefix: `test-many-${randomUUID()}`,
    now: () => clock.t,
  });
}

const summary = (vs: { success: boolean; remaining: number; source: string }[]) => vs.map((v) => [v.success, v.remaining]);

describe("RateLimiter.checkAll on the real store", () => {
  it("counts every subject in one call, stops at the first refusal, and leaves the refused and later subjects uncounted", async () => {
    const clock = { t: 29_000_000 * WINDOW_MS + 1_000 };
    const rl = limiter(3, clock);
    expect(summary(await rl.checkAll("ip", ["ip:a", "user:u"]))).toEqual([[true, 2], [true, 2]]);
    expect((await rl.checkAll("ip", ["ip:a", "user:u"]))[0].source).toBe("store");
    // Another address, same user: the user's counter is shared, the address's is fresh.
    expect(summary(await rl.checkAll("ip", ["ip:b", "user:u"]))).toEqual([[true, 2], [true, 0]]);
    // The user is spent: the address is counted, the user refuses (and is not counted further).
    expect(summary(await rl.checkAll("ip", ["ip:c", "user:u"]))).toEqual([[true, 2], [false, 0]]);
    // An address that is spent stops the walk before the user: only one verdict, the refusal.
    await rl.checkAll("ip", ["ip:d"]);
    await rl.checkAll("ip", ["ip:d"]);
    await rl.checkAll("ip", ["ip:d"]);
    expect(summary(await rl.checkAll("ip", ["ip:d", "user:fresh"]))).toEqual([[false, 0]]);
    expect(summary(await rl.checkAll("ip", ["user:fresh"]))).toEqual([[true, 2]]);
    // The reset is the end of the window, as `check` reports it.
    expect((await rl.checkAll("ip", ["ip:e"]))[0].reset).toBe(29_000_001 * WINDOW_MS);
  });

  it("weights the previous window by its overlap, floored (Upstash's slidingWindow)", async () => {
    const clock = { t: 29_000_100 * WINDOW_MS + 5_000 };
    const rl = limiter(5, clock);
    for (let i = 0; i < 4; i++) expect((await rl.checkAll("ip", ["ip:w"]))[0].success).toBe(true);
    // Half-way through the next window: floor(4 × 0.5) = 2 still weigh, so 3 more fit.
    clock.t = 29_000_101 * WINDOW_MS + WINDOW_MS / 2;
    const next = [];
    for (let i = 0; i < 4; i++) next.push((await rl.checkAll("ip", ["ip:w"]))[0]);
    expect(summary(next)).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
  });

  it("gives the same verdicts as the process-memory limiter for the same sequence", async () => {
    const clockA = { t: 29_000_200 * WINDOW_MS + 10_000 };
    const clockB = { t: clockA.t };
    const onStore = limiter(4, clockA);
    const inMemory = limiter(4, clockB, false);
    const steps: [number, string[]][] = [
      [0, ["ip:x", "user:p"]],
      [1_000, ["ip:y", "user:p"]],
      [2_000, ["ip:x", "user:q"]],
      [3_000, ["ip:x", "user:p"]],
      [4_000, ["ip:x", "user:p"]],
      [WINDOW_MS, ["ip:x", "user:p"]],
      [WINDOW_MS + 20_000, ["ip:x", "user:p"]],
      [WINDOW_MS + 50_000, ["ip:y", "user:p"]],
      [WINDOW_MS + 55_000, ["ip:x", "user:p"]],
    ];
    for (const [offset, subjects] of steps) {
      clockA.t = clockB.t = 29_000_200 * WINDOW_MS + 10_000 + offset;
      const a = await onStore.checkAll("ip", subjects);
      const b = await inMemory.checkAll("ip", subjects);
      expect([offset, summary(a)]).toEqual([offset, summary(b)]);
      expect(a.every((v) => v.source === "store") && b.every((v) => v.source === "memory")).toBe(true);
    }
  });

  it("shares its counters with `check` (the same keys as @upstash/ratelimit)", async () => {
    const clock = { t: Date.now() };
    const rl = limiter(5, clock);
    // `check` goes through @upstash/ratelimit, which reads the real clock; so does this call.
    await rl.check("ip", "ip:shared");
    await rl.check("ip", "ip:shared");
    clock.t = Date.now();
    const [v] = await rl.checkAll("ip", ["ip:shared"]);
    // Two counted by `check`, this one by checkAll: 2 left (3 if a window boundary fell in between and floored one).
    expect(v.success).toBe(true);
    expect([2, 3]).toContain(v.remaining);
  });
});
