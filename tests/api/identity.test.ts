import http from "node:http";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/backend/api-keys";
import { stackEnv } from "../helpers/stack";
import { noRealtime } from "../helpers/supabase";
import { startInOneWindow } from "../helpers/rate-window";

const sb = (key: string): SupabaseClient =>
  createClient(stackEnv().supabaseUrl as string, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
  });
const service = () => sb(stackEnv().serviceRoleKey as string);

/**
 * Identity and limits through real HTTP against the app: API keys on /api/v1, the client address from the socket
 * (D-22), spoofed forwarding headers, and the 429 shape. Requests leave from chosen loopback addresses (real
 * sockets), so each "visitor" here has its own address, as on the internet.
 */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

function call(method: string, path: string, opts: { from: string; headers?: Record<string, string>; body?: unknown }): Promise<Answer> {
  const url = new URL(path, stackEnv().appUrl);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: opts.from,
        headers: { ...(payload ? { "content-type": "application/json" } : {}), ...opts.headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A loopback address nobody else in this run uses. */
const randomLoopback = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

let key: { id: string; key: string };

beforeAll(async () => {
  key = await createApiKey(service(), { name: `api test ${Date.now()}` });
});

afterAll(async () => {
  await revokeApiKey(service(), key.id).catch(() => undefined);
});

describe("API keys on the reference API (/api/v1)", () => {
  it("refuses a missing, malformed or wrong key with 401 and serves a valid one the reference health shape", async () => {
    const from = randomLoopback();
    const none = await call("GET", "/api/v1/health", { from });
    expect(none.status).toBe(401);
    // Changed on purpose (spec-audit defect 8, R-ERR-003): /api/v1 errors use the reference shape, not {detail}.
    expect(none.body).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code: "API_KEY_REQUIRED" } });
    const malformed = await call("GET", "/api/v1/health", { from, headers: { "x-api-key": "hello" } });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code: "INVALID_API_KEY" } });
    const wrong = await call("GET", "/api/v1/health", { from, headers: { "x-api-key": `${key.key.slice(0, -4)}AAAA` } });
    expect(wrong.status).toBe(401);
    const ok = await call("GET", "/api/v1/health", { from, headers: { "x-api-key": key.key } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: expect.any(String), version: expect.any(String), timestamp: expect.any(String) });
    expect(Object.keys(ok.body.services as object).sort()).toEqual(["cache", "database", "llm_provider"]);
    // The API key's hourly limit is reported (the tighter of per-IP and per-key).
    expect(Number(ok.headers["x-ratelimit-limit"])).toBeGreaterThan(0);
  });

  it("a revoked key stops working", async () => {
    const other = await createApiKey(service(), { name: "to revoke" });
    const from = randomLoopback();
    expect((await call("GET", "/api/v1/health", { from, headers: { "x-api-key": other.key } })).status).toBe(200);
    expect(await revokeApiKey(service(), other.id)).toBe(true);
    // Verified keys are cached in the app for API_KEY_CACHE_SECONDS; wait it out (bounded) rather than assume.
    let status = 200;
    for (let i = 0; i < 80 && status === 200; i++) {
      status = (await call("GET", "/api/v1/health", { from, headers: { "x-api-key": other.key } })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(401);
  }, 60_000);
});

describe("client address and rate limits (D-21, D-22)", () => {
  it("each client address has its own bucket; spoofed X-Forwarded-For / X-RateLimit-Identity change nothing; the 429 is the reference shape", async () => {
    await startInOneWindow(60, 30);
    const a = randomLoopback();
    const b = randomLoopback();
    // An invalid event batch is the cheapest request that still passes the limiter (422 after it).
    const hit = (from: string, headers: Record<string, string> = {}) => call("POST", "/api/events", { from, headers, body: {} });
    const a1 = await hit(a);
    const b1 = await hit(b);
    const limit = Number(a1.headers["x-ratelimit-limit"]);
    expect(limit).toBeGreaterThan(0);
    // Two visitors, two buckets: b's first request is not counted against a (the app must be served through
    // server/app/app-server.ts so the socket address is known; `next start` alone cannot tell visitors apart).
    expect(Number(b1.headers["x-ratelimit-remaining"])).toBe(Number(a1.headers["x-ratelimit-remaining"]));

    const answers: Answer[] = [a1];
    for (let i = 1; i <= limit; i++) {
      answers.push(await hit(a, { "x-forwarded-for": `10.0.${i % 250}.${i % 200}`, "x-real-ip": `10.1.0.${i % 200}`, "x-ratelimit-identity": `visitor-${i}` }));
    }
    expect(answers.slice(0, limit).every((r) => r.status === 422)).toBe(true);
    const refused = answers[limit];
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: "RateLimitExceeded", message: expect.any(String), retry_after: expect.any(Number), status_code: 429 });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.headers["retry-after"]).toBe(String(refused.body.retry_after));
    expect(refused.headers["x-ratelimit-limit"]).toBe(String(limit));
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    expect(Number(refused.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000 - 1);
    // Pretending to be someone else does not help a.
    expect((await hit(a, { "x-forwarded-for": b })).status).toBe(429);
    // b is unaffected.
    expect((await hit(b)).status).toBe(422);
  }, 60_000);
});
