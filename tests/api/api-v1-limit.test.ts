import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/backend/api-keys";
import { startExtraApp } from "../helpers/extra-app";
import type { TestApp } from "../helpers/test-app";
import { Browser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";
import { createUser, serviceClient } from "../helpers/supabase";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

/**
 * The per-key hourly limit (API_KEY_RATE_LIMIT_PER_HOUR, 1000 by default) with a lowered test setting, on
 * an app of its own so the shared one keeps the real limit: the answers count down in X-RateLimit-*, the one past the
 * limit is the reference 429 with Retry-After, and another key is not affected.
 */
const LIMIT = 3;
let app: TestApp;

beforeAll(async () => {
  app = await startExtraApp(stackEnv(), { API_KEY_RATE_LIMIT_PER_HOUR: String(LIMIT) });
}, 600_000);

afterAll(async () => {
  await app?.stop();
});

describe("the hourly limit per API key", () => {
  it("counts down, then answers the reference 429 with Retry-After; another key has its own allowance", async () => {
    await startInOneWindow(3600, 60);
    const user = await createUser();
    const [one, two] = await Promise.all([
      createApiKey(serviceClient(), { name: "limit one", userId: user.id }),
      createApiKey(serviceClient(), { name: "limit two", userId: user.id }),
    ]);
    const client = new Browser(app.url);
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await client.get("/api/v1/trends", { "x-api-key": one.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      remaining.push(res.headers.get("x-ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await client.get("/api/v1/trends", { "x-api-key": one.key });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; message: string; retry_after: number; status_code: number };
    expect(body).toMatchObject({ error: "RateLimitExceeded", status_code: 429, message: expect.any(String) });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBe(body.retry_after);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");

    expect((await client.get("/api/v1/trends", { "x-api-key": two.key })).status).toBe(200);
  }, windowTestTimeout(60));
});
