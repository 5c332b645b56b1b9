import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, it } from "vitest";
import { RateLimiter, type RuleSpec } from "@/lib/backend/rate-limit";
import { createDirectLimitsStore, createLimitsStore } from "@/lib/backend/rate-limit-store";
import { GuestLimitReachedError, GuestMeter } from "@/lib/backend/guest";
import { UpstashBridge, UpstashCommandError } from "@/lib/backend/upstash-bridge";
import { stackEnv } from "../helpers/stack";

/**
 * RateLimiter.checkAll (the per-IP and per-user limits in one store round trip) against the real limits
 * store, over both transports: the stack's Upstash REST bridge (what a deployment on Upstash uses) and a direct Redis
 * connection (LIMITS_REDIS_URL, what `npm start` uses). The same sliding window and the same keys as `check`
 * (@upstash/ratelimit's slidingWindow), the walk stopping at the first refusal, and the same verdicts as the
 * process-memory limiter for the same sequence.
 */
const WINDOW_MS = 60_000;
const rules = (limit: number): Record<"search" | "ip" | "apiKey", RuleSpec> => ({
  search: { limit, windowSeconds: 60 },
  ip: { limit, windowSeconds: 60 },
  apiKey: { limit: 1000, windowSeconds: 3600 },
});

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const stores: Record<"rest" | "direct", Redis | null> = { rest: null, direct: null };

beforeAll(() => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  stores.rest = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
  stores.direct = createDirectLimitsStore({ redisUrl: REDIS_URL, timeoutMs: 2000 });
});

/** A limiter on a real store (or process memory) with a clock the test sets and a prefix of its own. */
function limiter(store: Redis | null, limit: number, clock: { t: number }, prefix = `test-many-${randomUUID()}`) {
  return new RateLimiter({
    store,
    rules: rules(limit),
    fallback: { perMinute: 1000, perHour: 10_000 },
    prefix,
    now: () => clock.t,
  });
}

const summary = (vs: { success: boolean; remaining: number; source: string }[]) => vs.map((v) => [v.success, v.remaining]);

describe.each(["rest", "direct"] as const)("RateLimiter.checkAll on the real store (%s)", (transport) => {
  const store = () => stores[transport] as Redis;

  it("counts every subject in one call, stops at the first refusal, and leaves the refused and later subjects uncounted", async () => {
    const clock = { t: 29_000_000 * WINDOW_MS + 1_000 };
    const rl = limiter(store(), 3, clock);
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
    const rl = limiter(store(), 5, clock);
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
    const onStore = limiter(store(), 4, clockA);
    const inMemory = limiter(null, 4, clockB);
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
    const rl = limiter(store(), 5, clock);
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

describe("the direct Redis transport (LIMITS_REDIS_URL)", () => {
  it("meters a guest: mints, counts, refuses past the allowance before the engine", async () => {
    const meter = new GuestMeter(stores.direct, { limit: 2, ttlSeconds: 3600, nudgeRemaining: 0 });
    let runs = 0;
    const run = async () => ++runs;
    const first = await meter.meter(null, run);
    expect(first.session).toMatchObject({ minted: true, remaining: 1, limit: 2 });
    const id = (first.session as { id: string }).id;
    expect((await meter.meter(id, run)).session).toMatchObject({ minted: false, remaining: 0 });
    await expect(meter.meter(id, run)).rejects.toBeInstanceOf(GuestLimitReachedError);
    expect(runs).toBe(2);
    expect(await meter.remove(id)).toBe(1);
  });

  it("sends a script Redis does not hold again as EVAL (NOSCRIPT)", async () => {
    const bridge = await UpstashBridge.connect(REDIS_URL, () => undefined);
    try {
      const script = `return {KEYS[1], ARGV[1], "${randomUUID()}"}`;
      const sha = createHash("sha1").update(script).digest("hex");
      const first = (await bridge?.evalScript(sha, script, ["k"], ["a"])) as string[];
      expect(first.slice(0, 2)).toEqual(["k", "a"]);
      // Redis holds it now (EVAL loads it): the second call is an EVALSHA and answers the same.
      expect(await bridge?.evalScript(sha, script, ["k"], ["b"])).toEqual(["k", "b", first[2]]);
      // A script Redis refuses to run is Redis's refusal, not a connection failure.
      const bad = `return redis.call('NOSUCHCOMMAND') -- ${randomUUID()}`;
      await expect(bridge?.evalScript(createHash("sha1").update(bad).digest("hex"), bad, [], [])).rejects.toBeInstanceOf(UpstashCommandError);
    } finally {
      await bridge?.close();
    }
  });

  it("a Redis that does not answer is a store failure within the deadline: the fallback limiter decides", async () => {
    const down = createDirectLimitsStore({ redisUrl: "redis://127.0.0.1:9", timeoutMs: 300 });
    const rl = new RateLimiter({ store: down, rules: rules(100), fallback: { perMinute: 1, perHour: 10 }, prefix: `test-down-${randomUUID()}` });
    const t0 = Date.now();
    const [a] = await rl.checkAll("ip", ["ip:down"]);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(a).toMatchObject({ source: "fallback", success: true });
    // The circuit is open now: the next call does not wait for Redis, and the fallback's 1/min refuses it.
    expect(await rl.check("ip", "ip:down")).toMatchObject({ source: "fallback", success: false });
  });
});
