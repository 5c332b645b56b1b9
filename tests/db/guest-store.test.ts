import { randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { stackEnv } from "../helpers/stack";

/**
 * The limits store's transport (the guest meter's and the rate limiter's client) against the stack's Upstash bridge
 * and a real Redis: the paths the guest meter and @upstash/ratelimit rely on beyond a plain command.
 */
const prefix = `test-guest-store-${randomUUID()}`;
let store: Redis;

beforeAll(() => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  store = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
});

afterAll(async () => {
  const keys = await store.keys(`${prefix}*`);
  if (keys.length) await store.del(...keys);
});

describe("limits store through the bridge", () => {
  it("a script Redis has never seen falls back from EVALSHA (NOSCRIPT) to EVAL, then runs by sha", async () => {
    // A script text unique to this run, so Redis's script cache cannot already hold it.
    const script = store.createScript<number>(`-- ${randomUUID()}\nreturn redis.call('INCR', KEYS[1])`);
    expect(await script.exec([`${prefix}:n`], [])).toBe(1);
    expect(await script.exec([`${prefix}:n`], [])).toBe(2);
  });

  it("a Redis error is thrown with Redis's message and without the command's text", async () => {
    await store.set(`${prefix}:text`, "not a number");
    const err = await store.incr(`${prefix}:text`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/not an integer/);
    expect(err?.message).not.toContain(prefix);
  });

  it("runs pipelines and multi-exec transactions", async () => {
    const p = store.pipeline();
    p.incr(`${prefix}:p`);
    p.incr(`${prefix}:p`);
    expect(await p.exec()).toEqual([1, 2]);
    const tx = store.multi();
    tx.incr(`${prefix}:p`);
    tx.get(`${prefix}:p`);
    expect(await tx.exec()).toEqual([3, 3]);
  });
});
