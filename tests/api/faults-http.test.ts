/**
 * The app answers honestly when the database or the auth server fails (security review M3, M4;
 * "Reliability and test coverage" rows 8-11), over real HTTP with every part real:
 *
 *   Browser → extra app ──(gateway proxy)──► own gateway ──(Postgres proxy)──► test Postgres
 *
 * Each scenario breaks one link with a fault proxy, checks status + body, then heals it and checks the same calls
 * succeed and nothing was half-applied. The shared app and gateway are never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayHandle } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { freePort, startExtraApp } from "../helpers/extra-app";
import { hostPort, startFaultProxy, viaProxy, type FaultProxy } from "../helpers/fault-proxy";
import { Browser, createUser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import type { TestApp } from "../helpers/test-app";

/** The gateway's statement_timeout here: a statement waiting on a lock the test holds hits it (57014). */
const STATEMENT_TIMEOUT_MS = 1500;
/** The app's deadline on Supabase calls (D-31): above the statement time-out, so row 9 is the database's own. */
const APP_TIMEOUT_MS = 5000;

const pool = adminPool();
let pgProxy: FaultProxy;
let gwProxy: FaultProxy;
let gateway: GatewayHandle;
let app: TestApp;
let browser: Browser;
let bearer: Browser;
let collectionId = "";
let docs: string[] = [];
const gatewayLog: string[] = [];

async function detail(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as { detail?: Record<string, unknown> };
  return body.detail ?? {};
}

/** Status and error code of an answer (the code of a success is undefined). */
async function outcome(res: Promise<Response>): Promise<[number, unknown]> {
  const r = await res;
  return [r.status, r.status >= 400 ? (await detail(r)).code : undefined];
}

async function memberCount(): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "select count(*)::int as n from public.collection_documents where collection_id = $1",
    [collectionId],
  );
  return rows[0].n;
}

beforeAll(async () => {
  const env = stackEnv();
  pgProxy = await startFaultProxy(hostPort(env.databaseUrl));
  const gatewayPort = await freePort();
  gwProxy = await startFaultProxy({ host: "127.0.0.1", port: gatewayPort });
  const supabaseUrl = gwProxy.url("http");
  const keys = await generateLocalKeys(supabaseUrl);
  gateway = await startGateway({
    port: gatewayPort,
    publicUrl: supabaseUrl,
    databaseUrl: viaProxy(env.databaseUrl, pgProxy),
    privateJwk: keys.privateJwk,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    upstashToken: keys.upstashToken,
    statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    poolConnectionTimeoutMs: 1000,
    log: (l) => gatewayLog.push(l),
  });
  app = await startExtraApp(
    { ...env, supabaseUrl, anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey },
    { UPSTREAM_TIMEOUT_MS: String(APP_TIMEOUT_MS) },
  );

  docs = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 3")).rows.map((r) => r.id);
  // One user, signed in twice: a cookie session (browser) and a bearer token (API client).
  const user = await createUser();
  browser = new Browser(app.url);
  const signIn = await browser.post("/api/auth/sign-in", { email: user.email, password: user.password });
  expect(signIn.status).toBe(200);
  const tokenRes = await fetch(`${supabaseUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: keys.anonKey, "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  bearer = new Browser(app.url, { authorization: `Bearer ${access_token}` });

  // Compiles (dev mode) and warms every route the scenarios use while all links pass.
  const created = await browser.post("/api/collections", { name: "faults", description: null });
  expect(created.status).toBe(201);
  collectionId = ((await created.json()) as { id: string }).id;
  expect((await browser.get("/api/collections")).status).toBe(200);
  expect((await bearer.get(`/api/collections/${collectionId}/documents`)).status).toBe(200);
  expect((await browser.patch(`/api/collections/${collectionId}`, { name: "faults" })).status).toBe(200);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await gateway?.close();
  await gwProxy?.close();
  await pgProxy?.close();
  await pool.end();
});

describe("session cookies (M2)", () => {
  it("are HttpOnly, SameSite=Lax and last SESSION_MAX_AGE_SECONDS (7 days), not 400 days", async () => {
    const user = await createUser();
    const b = new Browser(app.url);
    const res = await b.post("/api/auth/sign-in", { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    const lines = res.headers.get("set-cookie")?.split(/,(?=\s*sb-)/) ?? [];
    const session = lines.filter((l) => /^\s*sb-[^=]*-auth-token/.test(l));
    expect(session.length).toBeGreaterThan(0);
    for (const line of session) {
      expect(line).toMatch(/;\s*HttpOnly/i);
      expect(line).toMatch(/;\s*SameSite=lax/i);
      expect(line).toMatch(/;\s*Max-Age=604800\b/i);
    }
  });
});

describe("row 8: Postgres down behind a live gateway", () => {
  it("a signed-in read → 503 DATABASE_UNAVAILABLE, a write → 503 (not 500/401), nothing half-applied; healed → both work", async () => {
    expect(await memberCount()).toBe(0);
    pgProxy.set("refuse");
    try {
      // Reads verify the session locally (JWKS), then the RPC meets the gateway's 503 PGRST000.
      expect(await outcome(browser.get("/api/collections"))).toEqual([503, "DATABASE_UNAVAILABLE"]);
      expect(await outcome(bearer.get(`/api/collections/${collectionId}/documents`))).toEqual([503, "DATABASE_UNAVAILABLE"]);
      // Writes first ask the auth server to confirm the session (getUser); it cannot read its users without the
      // database and answers 500, which is AUTH_UNAVAILABLE: "try again", not "signed out" (was 401).
      expect(await outcome(browser.post(`/api/collections/${collectionId}/documents`, { document_id: docs[0] }))).toEqual([503, "AUTH_UNAVAILABLE"]);
      expect(await outcome(bearer.post(`/api/collections/${collectionId}/documents`, { document_id: docs[1] }))).toEqual([503, "AUTH_UNAVAILABLE"]);
    } finally {
      pgProxy.set("pass");
    }
    expect(await memberCount()).toBe(0);
    expect(await outcome(browser.get("/api/collections"))).toEqual([200, undefined]);
    const added = await browser.post(`/api/collections/${collectionId}/documents`, { document_id: docs[0] });
    expect([added.status, await added.json()]).toEqual([200, { added_count: 1 }]);
    expect(await memberCount()).toBe(1);
    // The cookie session survived the outage: nothing signed the visitor out.
    expect(browser.cookieNames().some((n) => /^sb-.*-auth-token/.test(n))).toBe(true);
  });
});

describe("row 9: statement time-out (57014)", () => {
  it("a write stuck on a lock past statement_timeout → 504 UPSTREAM_TIMEOUT, unchanged; released → it applies", async () => {
    const holder = await pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from public.collections where id = $1 for update", [collectionId]);
      const res = await browser.patch(`/api/collections/${collectionId}`, { name: "renamed during a lock" });
      expect([res.status, (await detail(res)).code]).toEqual([504, "UPSTREAM_TIMEOUT"]);
    } finally {
      await holder.query("rollback");
      holder.release();
    }
    const { rows } = await pool.query<{ name: string }>("select name from public.collections where id = $1", [collectionId]);
    expect(rows[0].name).toBe("faults");
    const again = await browser.patch(`/api/collections/${collectionId}`, { name: "renamed after" });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { name: string }).name).toBe("renamed after");
  });
});

describe("row 10: the gateway hangs", () => {
  it("reads and writes end at UPSTREAM_TIMEOUT_MS with 504 UPSTREAM_TIMEOUT, nothing applied; healed → they work", async () => {
    gwProxy.set("hang");
    try {
      expect(await outcome(browser.get("/api/collections"))).toEqual([504, "UPSTREAM_TIMEOUT"]);
      expect(await outcome(browser.post(`/api/collections/${collectionId}/documents`, { document_id: docs[1] }))).toEqual([504, "UPSTREAM_TIMEOUT"]);
      expect(await outcome(bearer.post(`/api/collections/${collectionId}/documents`, { document_id: docs[1] }))).toEqual([504, "UPSTREAM_TIMEOUT"]);
    } finally {
      gwProxy.set("pass");
    }
    expect(await memberCount()).toBe(1);
    expect(await outcome(bearer.post(`/api/collections/${collectionId}/documents`, { document_id: docs[1] }))).toEqual([200, undefined]);
    expect(await memberCount()).toBe(2);
  });
});

describe("row 11: the auth server is down for a signed-in caller", () => {
  it("a write → 503 AUTH_UNAVAILABLE (not 401), a forged token still 401; healed → the write applies", async () => {
    gwProxy.set("refuse");
    try {
      expect(await outcome(browser.post(`/api/collections/${collectionId}/documents`, { document_id: docs[2] }))).toEqual([503, "AUTH_UNAVAILABLE"]);
      expect(await outcome(bearer.post(`/api/collections/${collectionId}/documents`, { document_id: docs[2] }))).toEqual([503, "AUTH_UNAVAILABLE"]);
      // A token that is not one stays a verdict, outage or not.
      const forged = new Browser(app.url, { authorization: "Bearer not.a.jwt" });
      expect(await outcome(forged.post(`/api/collections/${collectionId}/documents`, { document_id: docs[2] }))).toEqual([401, "UNAUTHORIZED"]);
      // The data path is the same host here: reads say the database cannot be reached.
      expect(await outcome(bearer.get(`/api/collections/${collectionId}/documents`))).toEqual([503, "DATABASE_UNAVAILABLE"]);
    } finally {
      gwProxy.set("pass");
    }
    expect(await memberCount()).toBe(2);
    expect(await outcome(browser.post(`/api/collections/${collectionId}/documents`, { document_id: docs[2] }))).toEqual([200, undefined]);
    expect(await memberCount()).toBe(3);
  });
});
