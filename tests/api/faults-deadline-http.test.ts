/**
 * Deadlines are budgets, over real HTTP (fault tests; docs/faults.md rows 31-33):
 *
 *   Browser → extra app ──(gateway proxy)──► own gateway ──(Postgres proxy)──► test Postgres
 *
 * The app's per-call deadline (UPSTREAM_TIMEOUT_MS) is ten minutes and the gateway waits for a Postgres connection
 * forever, so a request that answers at all answered through the request's budget (REQUEST_DEADLINE_READ_MS,
 * _WRITE_MS), the access snapshot's deadline or the health checks' — no timed assertion needed. Before, a signed-in
 * read with the gateway hanging waited UPSTREAM_TIMEOUT_MS twice (the access snapshot, then the data) and
 * /api/health/status waited on the search sync state without a limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayHandle } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { freePort, startExtraApp } from "../helpers/extra-app";
import { hostPort, startFaultProxy, viaProxy, type FaultProxy } from "../helpers/fault-proxy";
import { Browser, createUser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import type { TestApp } from "../helpers/test-app";

const pool = adminPool();
let pgProxy: FaultProxy;
let gwProxy: FaultProxy;
let gateway: GatewayHandle;
let app: TestApp;
let browser: Browser;
let collectionId = "";
let docId = "";

type Health = { status: string; dependencies: Record<string, { status: string }> };

async function outcome(res: Promise<Response>): Promise<[number, unknown]> {
  const r = await res;
  const body = (await r.json().catch(() => ({}))) as { detail?: { code?: string } };
  return [r.status, r.status >= 400 ? body.detail?.code : undefined];
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
    poolConnectionTimeoutMs: 0, // waits for a connection forever: only the app's own limits end a request
  });
  app = await startExtraApp(
    { ...env, supabaseUrl, anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey },
    { UPSTREAM_TIMEOUT_MS: "600000", REQUEST_DEADLINE_READ_MS: "4000", REQUEST_DEADLINE_WRITE_MS: "5000", ADMIN_ACCESS_CACHE_TTL_MS: "1" },
  );
  docId = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 1")).rows[0].id;
  const user = await createUser();
  browser = new Browser(app.url);
  expect((await browser.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
  // Compiles (dev mode) and warms every route used below while every link passes.
  const created = await browser.post("/api/collections", { name: "deadlines", description: null });
  expect(created.status).toBe(201);
  collectionId = ((await created.json()) as { id: string }).id;
  expect((await browser.get("/api/collections")).status).toBe(200);
  expect((await browser.post(`/api/collections/${collectionId}/documents`, { document_id: docId })).status).toBe(200);
  expect((await new Browser(app.url).get("/api/health/status")).status).toBe(200);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await gateway?.close();
  await gwProxy?.close();
  await pgProxy?.close();
  await pool.end();
});

describe("one budget per request (fault tests)", () => {
  it("the gateway hangs: a signed-in read and a write answer 504 UPSTREAM_TIMEOUT at their budgets; healed → 200", { timeout: 120_000 }, async () => {
    gwProxy.set("hang");
    try {
      expect(await outcome(browser.get("/api/collections"))).toEqual([504, "UPSTREAM_TIMEOUT"]);
      expect(await outcome(browser.patch(`/api/collections/${collectionId}`, { name: "deadlines 2" }))).toEqual([504, "UPSTREAM_TIMEOUT"]);
    } finally {
      gwProxy.set("pass");
    }
    expect((await browser.get("/api/collections")).status).toBe(200);
  });

  it("Postgres hangs behind a live gateway: a signed-in read answers 504 UPSTREAM_TIMEOUT at the budget; healed → 200", { timeout: 120_000 }, async () => {
    pgProxy.set("hang");
    try {
      expect(await outcome(browser.get(`/api/collections/${collectionId}/documents`))).toEqual([504, "UPSTREAM_TIMEOUT"]);
    } finally {
      pgProxy.set("pass");
    }
    expect((await browser.get(`/api/collections/${collectionId}/documents`)).status).toBe(200);
  });
});

describe("/api/health/status with a hung part (fault tests)", () => {
  it.each([
    ["the gateway", () => gwProxy],
    ["Postgres", () => pgProxy],
  ])("%s hangs: health answers 200 `degraded` with the database down, each check within its time limit", { timeout: 120_000 }, async (_name, proxy) => {
    proxy().set("hang");
    try {
      const res = await new Browser(app.url).get("/api/health/status");
      expect(res.status).toBe(200);
      const h = (await res.json()) as Health;
      expect(h.status).toBe("degraded");
      expect(h.dependencies.database.status).toBe("down");
    } finally {
      proxy().set("pass");
    }
  });
});
