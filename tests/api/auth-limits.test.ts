import { createHmac } from "node:crypto";
import IORedis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Browser, createUser, signedInBrowser, uniqueEmail } from "../helpers/http";
import { stackEnv } from "../helpers/stack";
import { startInOneWindow } from "../helpers/rate-window";

/**
 * Credentials and the hashed rate-limit identities over real HTTP (security review L4, spec audit defect 6):
 * the sign-up password floor, sign-in/sign-up limits per client IP and per hashed e-mail with the reference 429, and
 * that the counters in the real Redis are keyed on HMACs, never on the raw user id or e-mail. The app under test runs
 * with the default limits (AUTH_RATE_LIMIT_PER_IP_PER_MINUTE 20, AUTH_RATE_LIMIT_PER_EMAIL 10).
 */

const PER_IP = 20;
const PER_EMAIL = 10;

const redis = new IORedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });

afterAll(() => {
  redis.disconnect();
});

/** Keys of the shared Redis whose name contains `needle` (a unique HMAC or id, so no other run's keys match). */
async function keysContaining(needle: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `*${needle}*`, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found;
}

/** The HMAC the app keys on: its RATE_LIMIT_IDENTITY_SECRET is unset, so the service role key is the secret. */
const hmac = (input: string) => createHmac("sha256", stackEnv().serviceRoleKey as string).update(input).digest("hex").slice(0, 32);

async function expectReference429(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await res.json()).toEqual({
    error: "RateLimitExceeded",
    message: expect.any(String),
    retry_after: expect.any(Number),
    status_code: 429,
  });
}

describe("sign-up password floor (L4)", () => {
  it("a password under 10 characters is 422 VALIDATION_ERROR naming password; 10 characters sign up", async () => {
    for (const password of ["abc", "nine-char"]) {
      const res = await new Browser().post("/api/auth/sign-up", { email: uniqueEmail("floor"), password });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { detail: { code: string; fields: { field: string }[] } };
      expect(body.detail.code).toBe("VALIDATION_ERROR");
      expect(body.detail.fields.map((f) => f.field)).toEqual(["password"]);
    }
    const ok = await new Browser().post("/api/auth/sign-up", { email: uniqueEmail("floor"), password: "ten-chars!" });
    expect(ok.status).toBe(201);
  });

  it("sign-in does not apply the floor (accounts made before it still sign in)", async () => {
    const res = await new Browser().post("/api/auth/sign-in", { email: uniqueEmail("floor"), password: "short" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: { code: "INVALID_CREDENTIALS" } });
  });
});

describe("sign-in and sign-up limits (L4)", () => {
  it("one e-mail tried from many addresses is refused after the per-e-mail limit, right password included", async () => {
    await startInOneWindow(900, 60); // AUTH_RATE_LIMIT_EMAIL_WINDOW_SECONDS
    const user = await createUser();
    for (let i = 0; i < PER_EMAIL; i++) {
      const res = await new Browser().post("/api/auth/sign-in", { email: user.email, password: `wrong-password-${i}` });
      expect(res.status).toBe(400);
    }
    // A fresh address each time, so only the e-mail's counter can refuse; the case of the address does not matter.
    await expectReference429(await new Browser().post("/api/auth/sign-in", { email: user.email.toUpperCase(), password: user.password }));
    // Sign-up with that e-mail counts under the same key (no enumeration around the limit).
    await expectReference429(await new Browser().post("/api/auth/sign-up", { email: user.email, password: "another-long-one" }));
    // Another account is unaffected.
    const other = await createUser();
    expect((await new Browser().post("/api/auth/sign-in", { email: other.email, password: other.password })).status).toBe(200);
  }, 120_000);

  it("one address trying many e-mails is refused after the per-IP limit, before the auth server is asked", async () => {
    await startInOneWindow(60, 30);
    const b = new Browser();
    for (let i = 0; i < PER_IP; i++) {
      const res = await b.post("/api/auth/sign-in", { email: uniqueEmail("stuff"), password: "guessed-password" });
      expect(res.status).toBe(400);
    }
    await expectReference429(await b.post("/api/auth/sign-in", { email: uniqueEmail("stuff"), password: "guessed-password" }));
    await expectReference429(await b.post("/api/auth/sign-up", { email: uniqueEmail("stuff"), password: "long-enough-password" }));
    // The general per-IP limit (100/min) is not what refused: other routes still answer this address.
    expect((await b.get("/api/auth/me")).status).toBe(200);
  }, 120_000);

  it("the per-e-mail counter is keyed on an HMAC of the e-mail, never the address itself", async () => {
    const email = uniqueEmail("hashed");
    expect((await new Browser().post("/api/auth/sign-in", { email, password: "some-password" })).status).toBe(400);
    expect(await keysContaining(hmac(`email:${email}`))).not.toEqual([]);
    expect(await keysContaining(email.split("@")[0])).toEqual([]);
  });
});

describe("hashed per-user rate-limit identity (R-AUTH-007, spec audit defect 6)", () => {
  it("a signed-in request is counted under user:<HMAC of the user id>; no key holds the raw id", async () => {
    const { browser, user } = await signedInBrowser();
    expect((await browser.get("/api/auth/me")).status).toBe(200);
    const keys = await keysContaining(hmac(`user:${user.id}`));
    expect(keys.some((k) => k.includes(`:user:${hmac(`user:${user.id}`)}`))).toBe(true);
    expect(await keysContaining(user.id)).toEqual([]);
  });
});
