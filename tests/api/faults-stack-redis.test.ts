/**
 * The guest store (Redis) down, over real HTTP.
 *   - Row 4: POST /api/guest/convert answers 503 GUEST_STORE_UNAVAILABLE, the guest session is left as it was (nothing
 *     charged, nothing lost), and once Redis is back the same call ends the session.
 *   - L5: /api/health/status reports the cache down to everyone, but the dependency's error message only to a
 *     signed-in admin.
 * An app of its own (tests/helpers/extra-app.ts) reaches the stack's Upstash bridge through a fault proxy, so
 * "Redis down" is a refused connection, not a mock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "@upstash/redis";
import { guestKey } from "@/lib/backend/guest";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { startExtraApp } from "../helpers/extra-app";
import { hostPort, startFaultProxy, viaProxy, type FaultProxy } from "../helpers/fault-proxy";
import { Browser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";
import { createUser, anonClient } from "../helpers/supabase";
import type { TestApp } from "../helpers/test-app";

// The extra app's prefix (tests/helpers/test-app.ts appEnv): guest keys live under it (L11).
const PREFIX = `rl-test-${process.pid}`;
let proxy: FaultProxy;
let app: TestApp;
let store: Redis;

beforeAll(async () => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge (is Redis running on 6379?)");
  store = createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 });
  proxy = await startFaultProxy(hostPort(env.upstashUrl));
  app = await startExtraApp(env, { UPSTASH_REDIS_REST_URL: viaProxy(env.upstashUrl, proxy) });
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await proxy?.close();
});

async function tokenOf(opts: { admin?: boolean } = {}): Promise<string> {
  const user = await createUser(opts);
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return data.session.access_token;
}

interface Health {
  dependencies: Record<string, { status: string; detail?: string }>;
}

describe("guest store down (row 4)", () => {
  it("convert answers 503 GUEST_STORE_UNAVAILABLE, keeps the session untouched, and works once Redis is back", { timeout: 600_000 }, async () => {
    proxy.set("pass");
    const visitor = new Browser(app.url);
    // Two distinct searches: a repeated one is not charged again.
    for (const q of ["contract", "contract appeal"]) expect((await visitor.get(`/api/search/documents?q=${encodeURIComponent(q)}`)).status).toBe(200);
    const session = visitor.cookie("guest_session_id") as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await store.get(guestKey(PREFIX, session))).toBe(2);

    const auth = { authorization: `Bearer ${await tokenOf()}` };
    proxy.set("refuse");
    const down = await visitor.post("/api/guest/convert", {}, auth);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { detail: { code: string } }).detail.code).toBe("GUEST_STORE_UNAVAILABLE");
    // Nothing charged, nothing lost: the session is exactly as it was.
    expect(await store.get(guestKey(PREFIX, session))).toBe(2);

    proxy.set("pass");
    const up = await visitor.post("/api/guest/convert", {}, auth);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ deleted: 1 });
    expect(await store.exists(guestKey(PREFIX, session))).toBe(0);
  });
});

describe("health while Redis is down (L5)", () => {
  it("anonymous callers and plain users see `unavailable`, a signed-in admin sees the error", { timeout: 600_000 }, async () => {
    proxy.set("refuse");
    const anonymous = (await (await new Browser(app.url).get("/api/health/status")).json()) as Health;
    expect(anonymous.dependencies.cache).toMatchObject({ status: "down", detail: "unavailable" });
    for (const d of Object.values(anonymous.dependencies)) {
      expect(["unavailable", "degraded", "not configured", undefined]).toContain(d.detail);
    }

    const user = (await (await new Browser(app.url).get("/api/health/status", { authorization: `Bearer ${await tokenOf()}` })).json()) as Health;
    expect(user.dependencies.cache).toMatchObject({ status: "down", detail: "unavailable" });

    const admin = (await (await new Browser(app.url).get("/api/health/status", { authorization: `Bearer ${await tokenOf({ admin: true })}` })).json()) as Health;
    expect(admin.dependencies.cache.status).toBe("down");
    expect(admin.dependencies.cache.detail).toBeTruthy();
    expect(admin.dependencies.cache.detail).not.toBe("unavailable");
    proxy.set("pass");
  });
});

describe("rows 1-3 over HTTP: the limits store refused or stalled", () => {
  const guestHeaders = (res: Response) => ({
    id: res.headers.get("x-guest-session-id"),
    remaining: res.headers.get("x-guest-searches-remaining"),
    limit: res.headers.get("x-ratelimit-limit"),
  });

  it("refused: guest searches run unmetered (no guest headers or cookie), the per-IP limit falls back to 100/min and refuses past it", { timeout: 600_000 }, async () => {
    proxy.set("refuse");
    const visitor = new Browser(app.url);
    const res = await visitor.get("/api/search/documents?q=contract");
    expect(res.status).toBe(200);
    // Row 3: unmetered (the spec's fail-open), so no session is minted or charged.
    expect(guestHeaders(res)).toEqual({ id: null, remaining: null, limit: "100" });
    expect(visitor.cookie("guest_session_id")).toBeUndefined();
    // Row 1: the process-local fallback (FALLBACK_RATE_LIMIT_PER_MINUTE 100) decides, and it never fails open. It is
    // a sliding window (the previous minute's count weighted by its overlap): a flood that crosses a minute boundary
    // is refused a little after its 101st request, and always by its 201st while the flood lasts under a minute.
    const flood = new Browser(app.url);
    let refused: Response | null = null;
    for (let i = 0; i < 201 && !refused; i++) {
      const r = await flood.get("/api/auth/me");
      if (r.status === 429) refused = r;
      else expect(r.status).toBe(200);
    }
    expect(refused).not.toBeNull();
    expect(await (refused as Response).json()).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
    proxy.set("pass");
  });

  it("stalled: the store's deadline ends the wait, the fallback decides; once Redis answers again metering resumes", { timeout: 600_000 }, async () => {
    // Let the app's retry pause from the refused test run out, so the stalled store is really asked.
    await new Promise((r) => setTimeout(r, 6_000));
    proxy.set("hang");
    const visitor = new Browser(app.url);
    const res = await visitor.get("/api/search/documents?q=contract");
    expect(res.status).toBe(200);
    expect(guestHeaders(res)).toEqual({ id: null, remaining: null, limit: "100" });

    proxy.set("pass");
    // After LIMITS_STORE_RETRY_MS (5 s) the store is tried again and the guest allowance is metered.
    await new Promise((r) => setTimeout(r, 6_000));
    const back = await visitor.get("/api/search/documents?q=contract");
    expect(back.status).toBe(200);
    expect(back.headers.get("x-guest-searches-remaining")).toBe("4");
    expect(visitor.cookie("guest_session_id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
