/**
 * Guest sessions live under LIMITS_KEY_PREFIX like the rate-limit counters, so two deployments
 * (or a developer's app and a test run) sharing one Redis never share a guest session. Real Redis through the stack's
 * Upstash bridge.
 */
import type { Redis } from "@upstash/redis";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuestMeter, guestKey, type GuestSession } from "@/lib/backend/guest";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { resetConfigForTests } from "@/lib/config";
import { stackEnv } from "../helpers/stack";

const SETTINGS = { limit: 5, ttlSeconds: 600, nudgeRemaining: 2 };
const A = `dur-a-${randomUUID().slice(0, 8)}`;
const B = `dur-b-${randomUUID().slice(0, 8)}`;
let store: Redis;

beforeAll(() => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  store = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
});

afterAll(() => {
  delete process.env.LIMITS_KEY_PREFIX;
  resetConfigForTests();
});

const run = async () => "hits";

async function session(meter: GuestMeter, cookie: string | null): Promise<GuestSession> {
  const { session: s } = await meter.meter(cookie, run);
  if (!s) throw new Error("unmetered");
  return s;
}

describe("guest session keys (L11)", () => {
  it("are stored under the deployment's prefix, never the bare guest:v1:<uuid>", async () => {
    const s = await session(new GuestMeter(store, { ...SETTINGS, keyPrefix: A }), null);
    expect(await store.get(`${A}:guest:v1:${s.id}`)).toBe(1);
    expect(await store.exists(`guest:v1:${s.id}`)).toBe(0);
    expect(guestKey(A, s.id)).toBe(`${A}:guest:v1:${s.id}`);
  });

  it("a session of one prefix is unknown under another: the other deployment mints its own and charges nothing here", async () => {
    const a = new GuestMeter(store, { ...SETTINGS, keyPrefix: A });
    const b = new GuestMeter(store, { ...SETTINGS, keyPrefix: B });
    const first = await session(a, null);
    const second = await session(a, first.id);
    expect(second).toMatchObject({ id: first.id, minted: false, remaining: 3 });
    const elsewhere = await session(b, first.id);
    expect(elsewhere.id).not.toBe(first.id);
    expect(elsewhere.minted).toBe(true);
    expect(await store.get(guestKey(A, first.id))).toBe(2);
    expect(await b.remove(first.id)).toBe(0);
    expect(await a.remove(first.id)).toBe(1);
  });

  it("without an explicit prefix the meter uses LIMITS_KEY_PREFIX from the configuration", async () => {
    process.env.LIMITS_KEY_PREFIX = B;
    resetConfigForTests();
    const s = await session(new GuestMeter(store, SETTINGS), null);
    expect(await store.exists(`${B}:guest:v1:${s.id}`)).toBe(1);
    await store.del(`${B}:guest:v1:${s.id}`);
  });
});
