import { describe, expect, it } from "vitest";
import { Browser, createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/http";
import { readSession, writeSession } from "../helpers/session-cookie";

describe("auth routes (cookie session through @supabase/ssr)", () => {
  it("signs up, is signed in at once (no e-mail confirmation locally), signs out", async () => {
    const b = new Browser();
    const email = uniqueEmail("signup");
    const up = await b.post("/api/auth/sign-up", { email, password: TEST_PASSWORD });
    expect(up.status).toBe(201);
    const body = await up.json();
    expect(body).toMatchObject({ user: { email, role: "user" }, signedIn: true });

    const me = await (await b.get("/api/auth/me")).json();
    expect(me.user).toMatchObject({ id: body.user.id, email, role: "user" });

    const out = await b.post("/api/auth/sign-out");
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ signed_out: true });
    expect((await (await b.get("/api/auth/me")).json()).user).toBeNull();
  });

  it("refuses a duplicate sign-up and a weak password with Supabase's codes in our envelope", async () => {
    const user = await createUser();
    const dup = await new Browser().post("/api/auth/sign-up", { email: user.email, password: TEST_PASSWORD });
    expect(dup.status).toBe(422);
    expect((await dup.json()).detail.code).toBe("USER_ALREADY_EXISTS");

    // Changed on purpose (security review L4): the app's sign-up schema now refuses a password under 10 characters
    // itself (422 VALIDATION_ERROR), before the auth server's WEAK_PASSWORD; tests/api/auth-limits.test.ts covers it.
    const weak = await new Browser().post("/api/auth/sign-up", { email: uniqueEmail(), password: "abc" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).detail.code).toBe("VALIDATION_ERROR");
  });

  it("signs in with the right password only", async () => {
    const user = await createUser();
    const bad = await new Browser().post("/api/auth/sign-in", { email: user.email, password: "wrong-password-1" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ detail: { code: "INVALID_CREDENTIALS" } });

    const b = new Browser();
    const ok = await b.post("/api/auth/sign-in", { email: user.email, password: user.password });
    expect(ok.status).toBe(200);
    expect((await ok.json()).user).toMatchObject({ id: user.id, email: user.email });
    expect((await (await b.get("/api/auth/me")).json()).user.id).toBe(user.id);
  });

  it("reports the admin role from app_metadata", async () => {
    const admin = await createUser({ admin: true });
    const b = new Browser();
    await b.post("/api/auth/sign-in", { email: admin.email, password: admin.password });
    expect((await (await b.get("/api/auth/me")).json()).user.role).toBe("admin");
  });

  it("validates the body: missing fields and bad JSON are 4xx, not 500", async () => {
    const b = new Browser();
    const missing = await b.post("/api/auth/sign-in", { email: "not-an-email" });
    expect(missing.status).toBe(422);
    expect((await missing.json()).detail.code).toBe("VALIDATION_ERROR");
    const badJson = await b.request("POST", "/api/auth/sign-in", "{not json", { "content-type": "application/json" });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).detail.code).toBe("INVALID_JSON");
  });
});

describe("the gates (middleware for pages, withRoute for the API)", () => {
  it("answers protected API routes without a session with 401 JSON, not a redirect", async () => {
    for (const [method, path] of [
      ["GET", "/api/collections"],
      ["POST", "/api/extractions/base-schema/aggregate"],
      ["POST", "/api/documents/search"],
      ["GET", "/api/search/analytics/history"],
    ] as const) {
      const res = await new Browser().request(method, path, method === "POST" ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).detail.code).toBe("UNAUTHORIZED");
    }
  });

  it("redirects signed-out visitors of protected pages to sign-in and lets public pages through", async () => {
    const res = await new Browser().get("/search/extractions?q=x");
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location") as string, "http://app.invalid");
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("next")).toBe("/search/extractions?q=x");
    expect((await new Browser().get("/api/health/status")).status).toBe(200);
  });

  it("answers an unknown API path with JSON: 401 without a session, 404 with one", async () => {
    const anon = await new Browser().get("/api/no-such-route");
    expect(anon.status).toBe(401);
    expect((await anon.json()).detail.code).toBe("UNAUTHORIZED");
    const user = await createUser();
    const b = new Browser();
    await b.post("/api/auth/sign-in", { email: user.email, password: user.password });
    const res = await b.get("/api/search/documents/extra");
    expect(res.status).toBe(404);
    expect((await res.json()).detail.code).toBe("NOT_FOUND");
  });

  it("refreshes an expired session on an API call (the handler, not the middleware) and sends the new cookies", async () => {
    const user = await createUser();
    const b = new Browser();
    expect((await b.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    const { key, session } = await readSession(b);
    // auth-js refreshes when the session's expires_at has passed, whatever the access token says.
    writeSession(b, key, { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 });

    const me = await b.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect((await me.json()).user).toMatchObject({ id: user.id });
    expect(me.headers.get("set-cookie") ?? "").toContain(key);
    const fresh = (await readSession(b)).session;
    expect(fresh.refresh_token).not.toBe(session.refresh_token);
    expect(fresh.expires_at).toBeGreaterThan(Date.now() / 1000);
  });

  it("lets a signed-in user through to protected pages", async () => {
    const user = await createUser();
    const b = new Browser();
    await b.post("/api/auth/sign-in", { email: user.email, password: user.password });
    const res = await b.get("/api/auth/me");
    expect(res.status).toBe(200);
    const gated = await b.get("/search/extractions");
    expect(gated.status).not.toBe(307);
  });
});
