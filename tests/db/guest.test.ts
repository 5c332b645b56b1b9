import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import net from "node:net";
import type { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "@/lib/backend/rate-limit";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { GuestLimitReachedError, GuestMeter, guestKey, guestSearchKey, type GuestSession } from "@/lib/backend/guest";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { startGateway, type GatewayHandle } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { stackEnv } from "../helpers/stack";

/**
 * The guest allowance against the real limits store: the stack's Upstash bridge over a real Redis. The outage test
 * runs its own redis-server on another port behind its own bridge, so stopping it touches nobody else.
 */
const SETTINGS = { limit: 5, ttlSeconds: 24 * 3600, nudgeRemaining: 2 };

/** A search engine double that counts its calls and can be told to fail. */
function engine() {
  const e = { calls: 0, failNext: false };
  const run = async () => {
    e.calls += 1;
    if (e.failNext) {
      e.failNext = false;
      throw new Error("engine down");
    }
    return { hits: [] as string[] };
  };
  return Object.assign(e, { run });
}

let store: Redis;

beforeAll(() => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  store = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
});

async function search(meter: GuestMeter, cookie: string | null, eng: ReturnType<typeof engine>): Promise<GuestSession | "spent"> {
  try {
    const { session } = await meter.meter(cookie, eng.run);
    if (!session) throw new Error("unmetered");
    return session;
  } catch (e) {
    if (e instanceof GuestLimitReachedError) return "spent";
    throw e;
  }
}

describe("distinct searches (guestSearchKey)", () => {
  const key = (q: string, extra: Record<string, unknown> = {}) => guestSearchKey({ q, semantic_ratio: 0, limit: 20, offset: 0, ...extra });

  it("keys ignore paging and parameter order; query, filter and sort changes are new searches", () => {
    expect(key("kradzież", { offset: 40, limit: 10 })).toBe(key("kradzież"));
    expect(guestSearchKey({ offset: 0, q: "a b", filter: undefined })).toBe(guestSearchKey({ q: "a b", offset: 20 }));
    expect(key("kradzież")).not.toBe(key("kradzież z włamaniem"));
    expect(key("x", { filter: 'jurisdiction = "PL"' })).not.toBe(key("x"));
    expect(key("x", { sort: "date:desc" })).not.toBe(key("x"));
  });

  it("a repeated key is charged once, answered even when spent, and a failed search forgets its key", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const first = await meter.meter(null, eng.run, { searchKey: key("a") });
    const id = first.session?.id as string;
    expect(first.session).toMatchObject({ remaining: 4, minted: true });
    const again = await meter.meter(id, eng.run, { searchKey: key("a", { offset: 20 }) });
    expect(again.session).toMatchObject({ remaining: 4, minted: false, nudge: false });
    // A failed new search is refunded and its key forgotten: retried, it is charged once.
    eng.failNext = true;
    await expect(meter.meter(id, eng.run, { searchKey: key("b") })).rejects.toThrow("engine down");
    expect((await meter.meter(id, eng.run, { searchKey: key("b") })).session).toMatchObject({ remaining: 3, nudge: false });
    expect((await meter.meter(id, eng.run, { searchKey: key("c") })).session).toMatchObject({ remaining: 2, nudge: true });
    // A failed repeat refunds nothing (it was not charged).
    eng.failNext = true;
    await expect(meter.meter(id, eng.run, { searchKey: key("c") })).rejects.toThrow("engine down");
    expect((await meter.meter(id, eng.run, { searchKey: key("c") })).session).toMatchObject({ remaining: 2, nudge: false });
    await meter.meter(id, eng.run, { searchKey: key("d") });
    await meter.meter(id, eng.run, { searchKey: key("e") });
    const calls = eng.calls;
    await expect(meter.meter(id, eng.run, { searchKey: key("f") })).rejects.toBeInstanceOf(GuestLimitReachedError);
    expect(eng.calls).toBe(calls);
    expect((await meter.meter(id, eng.run, { searchKey: key("a", { offset: 60 }) })).session).toMatchObject({ remaining: 0 });
    // Without a key every call is charged (the rule is the caller's to opt into).
    const other = await meter.meter(null, eng.run);
    const otherId = other.session?.id as string;
    expect((await meter.meter(otherId, eng.run)).session?.remaining).toBe(3);
    // The seen set ends with the session.
    const ttl = await store.ttl(`${guestKey(config().LIMITS_KEY_PREFIX, id)}:seen`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(SETTINGS.ttlSeconds);
    expect(await meter.remove(id)).toBe(1);
    expect(await store.exists(`${guestKey(config().LIMITS_KEY_PREFIX, id)}:seen`)).toBe(0);
  });
});

describe("guest allowance state machine (spec table; D-11, D-12)", () => {
  it("mints a session on the first search, allows 5, nudges at 2, refuses the 6th before the engine", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const first = await search(meter, null, eng);
    if (first === "spent") throw new Error("spent at once");
    expect(first).toMatchObject({ minted: true, limit: 5, remaining: 4, nudge: false });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.ttlSeconds).toBeGreaterThan(24 * 3600 - 5);
    const seen = [first];
    for (let i = 0; i < 4; i++) {
      const s = await search(meter, first.id, eng);
      if (s === "spent") throw new Error(`spent after ${i + 1}`);
      expect(s.id).toBe(first.id);
      expect(s.minted).toBe(false);
      seen.push(s);
    }
    expect(seen.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(seen.map((s) => s.nudge)).toEqual([false, false, true, false, false]);
    expect(eng.calls).toBe(5);
    expect(await search(meter, first.id, eng)).toBe("spent");
    expect(eng.calls).toBe(5);
    // The refusal carries the headers' values (D-11: remaining 0).
    await expect(meter.meter(first.id, eng.run)).rejects.toMatchObject({ session: { id: first.id, remaining: 0, limit: 5 } });
    expect(eng.calls).toBe(5);
  });

  it("an engine failure charges nothing and the error reaches the caller", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const s1 = (await search(meter, null, eng)) as GuestSession;
    eng.failNext = true;
    await expect(meter.meter(s1.id, eng.run)).rejects.toThrow("engine down");
    const s2 = (await search(meter, s1.id, eng)) as GuestSession;
    expect(s2.remaining).toBe(3);
    expect(eng.calls).toBe(3);
  });

  it("concurrent searches cannot overspend the allowance", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const s = (await search(meter, null, eng)) as GuestSession;
    const results = await Promise.all(Array.from({ length: 10 }, () => search(meter, s.id, eng)));
    expect(results.filter((r) => r !== "spent")).toHaveLength(4);
    expect(eng.calls).toBe(5);
  });

  it("a malformed or unknown cookie mints a fresh session instead of trusting it", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const forged = randomUUID();
    const a = (await search(meter, forged, eng)) as GuestSession;
    expect(a.id).not.toBe(forged);
    expect(a.minted).toBe(true);
    const b = (await search(meter, "not-a-uuid", eng)) as GuestSession;
    expect(b.minted).toBe(true);
  });

  it("the 24 h window is fixed at minting (searches do not extend it) and expiry mints a new session", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const s = (await search(meter, null, eng)) as GuestSession;
    // The key carries LIMITS_KEY_PREFIX like the rate-limit counters.
    const key = guestKey(config().LIMITS_KEY_PREFIX, s.id);
    await store.expire(key, 100);
    const again = (await search(meter, s.id, eng)) as GuestSession;
    expect(again.ttlSeconds).toBeLessThanOrEqual(100);
    expect(await store.ttl(key)).toBeLessThanOrEqual(100);
    // 24 hours elapse: the key expires.
    await store.pexpire(key, 1);
    for (let i = 0; i < 50 && (await store.exists(key)) === 1; i++) await new Promise((r) => setTimeout(r, 20));
    const next = (await search(meter, s.id, eng)) as GuestSession;
    expect(next.id).not.toBe(s.id);
    expect(next).toMatchObject({ minted: true, remaining: 4 });
  });

  it("convert deletes the session and reports the count; clearing the cookie grants a new allowance", async () => {
    const meter = new GuestMeter(store, SETTINGS);
    const eng = engine();
    const s = (await search(meter, null, eng)) as GuestSession;
    expect(await meter.remove(s.id)).toBe(1);
    expect(await meter.remove(s.id)).toBe(0);
    expect(await meter.remove(null)).toBe(0);
    const fresh = (await search(meter, null, eng)) as GuestSession;
    expect(fresh.remaining).toBe(4);
  });

  it("without a store the search runs unmetered and a warning is logged", async () => {
    const warn = vi.spyOn(logger, "warn");
    const meter = new GuestMeter(null, SETTINGS);
    const eng = engine();
    const out = await meter.meter(null, eng.run);
    expect(out.session).toBeNull();
    expect(eng.calls).toBe(1);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe("limits store outage (Redis stopped mid-test, then back)", () => {
  const port = 16_000 + Math.floor(Math.random() * 20_000);
  let redis: ChildProcess | null = null;
  let gateway: GatewayHandle;
  let ownStore: Redis;

  const startRedis = async () => {
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    // Wait until the port answers.
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((r) => {
        const s = net.connect(port, "127.0.0.1", () => (s.end(), r(true)));
        s.on("error", () => r(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("redis-server did not start");
  };
  const stopRedis = async () => {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };

  beforeAll(async () => {
    await startRedis();
    const keys = await generateLocalKeys("http://127.0.0.1:0");
    gateway = await startGateway({
      port: 0,
      databaseUrl: stackEnv().databaseUrl,
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      redisUrl: `redis://127.0.0.1:${port}`,
    });
    if (!gateway.upstash) throw new Error("own bridge did not connect");
    ownStore = createLimitsStore({ url: gateway.upstash.url, token: gateway.upstash.token, timeoutMs: 500, retryAfterMs: 300 });
  });

  afterAll(async () => {
    // The bridge closes cleanly only while its Redis answers.
    if (!redis || redis.exitCode !== null) await startRedis();
    await gateway?.close();
    await stopRedis();
  });

  it("guest searches go on unmetered with a warning, the per-IP limit holds via the local fallback, and metering resumes", async () => {
    const meter = new GuestMeter(ownStore, SETTINGS);
    const limiter = new RateLimiter({
      store: ownStore,
      rules: { search: { limit: 60, windowSeconds: 60 }, ip: { limit: 100, windowSeconds: 60 }, apiKey: { limit: 1000, windowSeconds: 3600 } },
      fallback: { perMinute: 100, perHour: 1000 },
    });
    const eng = engine();
    const ip = `ip:198.51.100.${Math.floor(Math.random() * 250)}`;

    const before = (await search(meter, null, eng)) as GuestSession;
    expect(before.remaining).toBe(4);
    expect((await limiter.check("search", ip)).source).toBe("store");

    await stopRedis();
    const warn = vi.spyOn(logger, "warn");
    const during = await meter.meter(before.id, eng.run);
    expect(during.session).toBeNull();
    expect(eng.calls).toBe(2);
    expect(warn.mock.calls.some((c) => JSON.stringify(c).includes("unmetered"))).toBe(true);
    warn.mockRestore();

    // Never fail open: 100 per minute from this process, then refusals.
    const verdicts = [];
    for (let i = 0; i < 101; i++) verdicts.push(await limiter.check("search", ip));
    expect(verdicts.every((v) => v.source === "fallback")).toBe(true);
    expect(verdicts.slice(0, 100).every((v) => v.success)).toBe(true);
    expect(verdicts[100].success).toBe(false);

    await startRedis();
    // The bridge reconnects on its own; wait (bounded) until the store answers again.
    let resumed: GuestSession | null = null;
    for (let i = 0; i < 150 && !resumed; i++) {
      resumed = (await meter.meter(null, eng.run)).session;
      if (!resumed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(resumed).not.toBeNull();
    expect(resumed).toMatchObject({ minted: true, remaining: 4 });
    const back = await limiter.check("search", `ip:203.0.113.${Math.floor(Math.random() * 250)}`);
    expect(back.source).toBe("store");
  });
});
