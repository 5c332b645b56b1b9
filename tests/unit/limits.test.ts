import { afterEach, describe, expect, it } from "vitest";
import { errorResponse, RateLimitError } from "@/lib/api/errors";
import { rateLimitHeaders, tightest } from "@/lib/api/rate-limit";
import { resetConfigForTests } from "@/lib/config";
import { RateLimiter, type RuleSpec } from "@/lib/backend/rate-limit";
import { LocalSlidingWindow } from "@/lib/backend/rate-limit-local";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";

const rules = (search = 3, ip = 5, apiKey = 7): Record<"search" | "ip" | "apiKey", RuleSpec> => ({
  search: { limit: search, windowSeconds: 60 },
  ip: { limit: ip, windowSeconds: 60 },
  apiKey: { limit: apiKey, windowSeconds: 3600 },
});

afterEach(() => resetConfigForTests());

describe("LocalSlidingWindow", () => {
  it("admits exactly `limit` requests per window per key and keys are independent", () => {
    let t = 60_000 * 1000; // start of a window
    const w = new LocalSlidingWindow(3, 60_000, () => t);
    expect([1, 2, 3].map(() => w.take("a").success)).toEqual([true, true, true]);
    expect(w.take("a")).toMatchObject({ success: false, remaining: 0, limit: 3 });
    expect(w.take("b").success).toBe(true);
    // Refused requests are not counted: still refused, not worse.
    expect(w.take("a").success).toBe(false);
    // Next window, right at its start: the previous window still weighs fully.
    t += 60_000;
    expect(w.take("a").success).toBe(false);
    // Two windows later nothing weighs.
    t += 60_000;
    expect(w.take("a")).toMatchObject({ success: true, remaining: 2 });
  });

  it("reports remaining and a reset at the window end", () => {
    const t = 60_000 * 500 + 15_000;
    const w = new LocalSlidingWindow(10, 60_000, () => t);
    const d = w.take("k");
    expect(d.remaining).toBe(9);
    expect(d.reset).toBe(60_000 * 501);
  });
});

describe("RateLimiter", () => {
  it("uses process memory with the configured limits when no store is configured", async () => {
    const rl = new RateLimiter({ store: null, rules: rules(2), fallback: { perMinute: 100, perHour: 1000 } });
    const a = await rl.check("search", "ip:10.0.0.1");
    const b = await rl.check("search", "ip:10.0.0.1");
    const c = await rl.check("search", "ip:10.0.0.1");
    expect([a.success, b.success, c.success]).toEqual([true, true, false]);
    expect(a.source).toBe("memory");
    expect(c.remaining).toBe(0);
  });

  it("never fails open: an unreachable store falls back to the process-local 100/min limiter", async () => {
    // A real Upstash client pointed at a closed port: every command fails.
    const store = createLimitsStore({ url: "http://127.0.0.1:9", token: "x", timeoutMs: 200 });
    const rl = new RateLimiter({ store, rules: rules(60, 100), fallback: { perMinute: 4, perHour: 1000 } });
    const verdicts = [];
    for (let i = 0; i < 5; i++) verdicts.push(await rl.check("search", "ip:10.0.0.2"));
    expect(verdicts.map((v) => v.source)).toEqual(Array(5).fill("fallback"));
    expect(verdicts.map((v) => v.success)).toEqual([true, true, true, true, false]);
  });

  it("the fallback's hourly window holds too", async () => {
    const store = createLimitsStore({ url: "http://127.0.0.1:9", token: "x", timeoutMs: 200 });
    const rl = new RateLimiter({ store, rules: rules(), fallback: { perMinute: 100, perHour: 3 } });
    const ok = [];
    for (let i = 0; i < 4; i++) ok.push((await rl.check("ip", "ip:10.0.0.3")).success);
    expect(ok).toEqual([true, true, true, false]);
  });

  it("checkAll (address and user in one call) also falls back, per subject, when the store is unreachable", async () => {
    const store = createLimitsStore({ url: "http://127.0.0.1:9", token: "x", timeoutMs: 200 });
    const rl = new RateLimiter({ store, rules: rules(60, 100), fallback: { perMinute: 2, perHour: 1000 } });
    const first = await rl.checkAll("ip", ["ip:10.0.0.4", "user:h"]);
    expect(first.map((v) => [v.source, v.success])).toEqual([["fallback", true], ["fallback", true]]);
    await rl.checkAll("ip", ["ip:10.0.0.5", "user:h"]);
    // The user's fallback window is spent (2 a minute); the new address is still counted first.
    const third = await rl.checkAll("ip", ["ip:10.0.0.6", "user:h"]);
    expect(third.map((v) => [v.source, v.success])).toEqual([["fallback", true], ["fallback", false]]);
  });

  it("checkAll without a store walks the subjects in process memory and stops at the first refusal", async () => {
    const rl = new RateLimiter({ store: null, rules: rules(60, 1), fallback: { perMinute: 100, perHour: 1000 } });
    expect((await rl.checkAll("ip", ["ip:a", "user:m"])).map((v) => v.success)).toEqual([true, true]);
    expect((await rl.checkAll("ip", ["ip:a", "user:n"])).map((v) => v.success)).toEqual([false]);
    expect((await rl.checkAll("ip", ["user:n"])).map((v) => v.success)).toEqual([true]);
  });
});

describe("429 shape (D-15)", () => {
  it("has the reference body and the Retry-After and X-RateLimit-* headers", async () => {
    const reset = Date.now() + 30_500;
    const err = new RateLimitError(31, rateLimitHeaders({ success: false, limit: 60, remaining: 0, reset, source: "store" }));
    const res = errorResponse(err, "/api/search/documents");
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: "RateLimitExceeded", message: expect.any(String), retry_after: 31, status_code: 429 });
    expect(res.headers.get("retry-after")).toBe("31");
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-reset")).toBe(String(Math.ceil(reset / 1000)));
  });

  it("reports the verdict closest to refusing", () => {
    const v = (remaining: number) => ({ success: true, limit: 10, remaining, reset: 0, source: "memory" as const });
    expect(tightest([v(5), v(2), v(7)])?.remaining).toBe(2);
    expect(tightest([])).toBeNull();
  });
});
