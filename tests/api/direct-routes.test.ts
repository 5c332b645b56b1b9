/**
 * Direct routes (issue 20 item 3, lib/api/direct-routes.ts): in a production build our HTTP server hands GET
 * /api/search/documents and /api/search/autocomplete straight to their route handlers once Next has loaded them.
 * These tests hold the direct answers to what Next itself answers: a second app with DIRECT_ROUTES=0 (every request
 * through Next) is the reference, asked the same questions by the same visitor.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { deleteFixtureRows, insertFixtureRows, rebuildAppIndex } from "../helpers/app-index";
import { startExtraApp } from "../helpers/extra-app";
import { Browser, createUser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { readSession, writeSession } from "../helpers/session-cookie";
import type { TestApp } from "../helpers/test-app";

const production = () => stackEnv().appMode === "production";

/** Headers that differ between any two answers (time, connection, counters) or by the way the body is framed. */
const VOLATILE = new Set([
  "date",
  "connection",
  "keep-alive",
  "server-timing",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-guest-session-id",
  "set-cookie",
  "transfer-encoding",
  "content-length",
  "vary",
]);

function stableHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!VOLATILE.has(key)) out[key] = value;
  });
  return out;
}

/** The answer's JSON without its timings (they differ between any two searches). */
async function bodyWithoutTimings(res: Response): Promise<unknown> {
  const body = (await res.json()) as Record<string, unknown>;
  delete body.processing_time_ms;
  delete body.embedding_time_ms;
  return body;
}

/** Whether an answer came from the direct dispatcher: it frames the body with Content-Length, Next streams it. */
const servedDirectly = (res: Response) => res.headers.get("vary") === "Accept-Encoding" && res.headers.has("content-length");

/** A visitor of `app` holding the same cookies as `b` (the session cookie names the gateway, not the app). */
function sameVisitor(b: Browser, app: TestApp): Browser {
  const twin = new Browser(app.url);
  for (const name of b.cookieNames()) twin.setCookie(name, b.cookie(name));
  return twin;
}

/** Every search is scoped to the search-conformance fixture rows, so other suites' rows never change an answer. */
const FX = encodeURIComponent("decision_type = fixture");

describe("direct routes answer as Next does", () => {
  let reference: TestApp;
  let pool: pg.Pool;

  beforeAll(async () => {
    const dataDir = stackEnv().searchDataDir ?? process.env.SEARCH_DATA_DIR;
    if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the direct-route tests");
    pool = adminPool();
    await insertFixtureRows(pool);
    await rebuildAppIndex(pool, dataDir);
    reference = await startExtraApp(stackEnv(), { DIRECT_ROUTES: "0" });
    // The shared app serves a route directly once Next has loaded its module: load both.
    await new Browser().get("/api/search/documents?q=robbery");
    await new Browser().get("/api/search/autocomplete?q=rob");
  }, 300_000);

  afterAll(async () => {
    await reference?.stop();
    if (pool) await deleteFixtureRows(pool);
  });

  it("a signed-in keyword search, a filtered one, a page past the first, autocomplete and a refused query: same status, body and headers", async () => {
    const user = await createUser();
    const b = new Browser();
    expect((await b.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    const twin = sameVisitor(b, reference);
    const paths = [
      `/api/search/documents?q=robbery&filter=${FX}`,
      `/api/search/documents?q=knife&filter=${encodeURIComponent("decision_type = fixture AND jurisdiction = UK")}&limit=5`,
      `/api/search/documents?q=robbery&filter=${FX}&offset=1&limit=2`,
      `/api/search/autocomplete?q=rob&filter=${FX}`,
      `/api/search/documents?q=robbery&filter=${FX}&limit=0`,
      "/api/search/documents?q=robbery&filter=%28%28%28",
    ];
    // Not an empty comparison: the first search finds something.
    expect(((await b.get(paths[0]).then((r) => r.json())) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    for (const path of paths) {
      const direct = await b.get(path);
      const next = await twin.get(path);
      if (production()) expect(servedDirectly(direct), path).toBe(true);
      expect(servedDirectly(next), path).toBe(false);
      expect(direct.status, path).toBe(next.status);
      expect(stableHeaders(direct), path).toEqual(stableHeaders(next));
      expect(await bodyWithoutTimings(direct), path).toEqual(await bodyWithoutTimings(next));
    }
  });

  it("a guest is metered once per search, with the session cookie minted on the first answer, as through Next", async () => {
    const direct = new Browser();
    const next = new Browser(reference.url);
    for (let i = 1; i <= 2; i++) {
      const a = await direct.get(`/api/search/documents?q=robbery+${i}`);
      const r = await next.get(`/api/search/documents?q=robbery+${i}`);
      expect(a.status).toBe(200);
      expect(r.status).toBe(200);
      expect(a.headers.get("x-guest-searches-remaining")).toBe(r.headers.get("x-guest-searches-remaining"));
      expect(Boolean(a.headers.get("set-cookie")?.includes("guest_session_id="))).toBe(i === 1);
      expect(Boolean(r.headers.get("set-cookie")?.includes("guest_session_id="))).toBe(i === 1);
    }
    expect(direct.cookie("guest_session_id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("compresses for a client that accepts gzip, and the body is the same JSON", async () => {
    const b = new Browser();
    const path = `/api/search/documents?q=robbery&filter=${FX}`;
    await b.get(path);
    const plain = await b.get(path);
    const text = await plain.clone().text();
    // Worth compressing (Next leaves answers under 1 KB as they are, and so does the dispatcher).
    expect(text.length).toBeGreaterThan(1024);
    const zipped = await b.get(path, { "accept-encoding": "gzip, deflate" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const unzipped = JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString("utf8")) as Record<string, unknown>;
    const body = (await plain.json()) as Record<string, unknown>;
    expect(body.hits).not.toEqual([]);
    expect(unzipped.hits).toEqual(body.hits);
    // q=0 refuses the coding.
    const refused = await b.get(path, { "accept-encoding": "gzip;q=0" });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });

  it("refreshes an expired cookie session on a search and sends the new cookies", async () => {
    const user = await createUser();
    const b = new Browser();
    expect((await b.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    await b.get("/api/search/documents?q=appeal");
    const { key, session } = await readSession(b);
    writeSession(b, key, { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 });

    const res = await b.get("/api/search/documents?q=appeal&semantic_ratio=0.5");
    expect(res.status).toBe(200);
    if (production()) expect(servedDirectly(res)).toBe(true);
    // Signed in (semantic_ratio is honoured only for signed-in callers), and the refreshed session came back.
    expect(((await res.json()) as { semantic_ratio: number }).semantic_ratio).toBe(0.5);
    expect(res.headers.get("set-cookie") ?? "").toContain(key);
    const fresh = (await readSession(b)).session;
    expect(fresh.refresh_token).not.toBe(session.refresh_token);
    expect(fresh.expires_at).toBeGreaterThan(Date.now() / 1000);
  });

  it("writes the search's analytics row after the answer (after() in a direct request)", async () => {
    const q = `direct analytics ${Date.now()}`;
    const res = await new Browser().get(`/api/search/documents?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    if (production()) expect(servedDirectly(res)).toBe(true);
    let rows: Array<{ mode: string }> = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = (await pool.query("select mode from public.search_analytics where query = $1", [q])).rows;
    }
    expect(rows).toEqual([{ mode: "text" }]);
  });

  it("reads the path from the request line: a Host header with a path in it cannot move the request elsewhere", async () => {
    const b = new Browser();
    await b.get(`/api/search/documents?q=robbery&filter=${FX}`);
    // Under /api/v1 errors take the reference shape; a refused search here keeps the web shape of its own path.
    const res = await b.get("/api/search/documents?q=robbery&limit=0", { host: "example.test/api/v1/documents" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail?: { code: string } }).detail?.code).toBe("VALIDATION_ERROR");
  });

  it("leaves every other spelling of the path, and other methods, to Next", async () => {
    const b = new Browser();
    await b.get("/api/search/documents?q=appeal");
    const slash = await b.get("/api/search/documents/?q=appeal");
    expect(servedDirectly(slash)).toBe(false);
    expect([308, 401, 404]).toContain(slash.status);
    const head = await b.request("HEAD", "/api/search/documents?q=appeal");
    expect(head.status).toBe(200);
    expect(servedDirectly(head)).toBe(false);
    const post = await b.post("/api/search/documents", {});
    expect(post.status).toBe(405);
  });
});
