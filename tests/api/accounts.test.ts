import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser, TEST_PASSWORD } from "../helpers/http";
import { rebuildAppIndex } from "../helpers/app-index";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * Over HTTP: saved searches (CRUD, run, the 200 limit, filters validated like any filter, a foreign id is a
 * plain 404), settings (profile, password, account deletion) and /api/admin/mail. Users are shared by the cases.
 */
const pool = adminPool();
afterAll(() => pool.end());

let alice: Browser;
let aliceId: string;
let bob: Browser;

beforeAll(async () => {
  const a = await signedInBrowser();
  alice = a.browser;
  aliceId = a.user.id;
  bob = (await signedInBrowser()).browser;
  // The run test compares with the live search: build the app's index when no earlier suite has.
  const probe = await (await alice.get("/api/search/documents?q=&limit=1")).json();
  if (!probe.hits?.length) await rebuildAppIndex(pool, stackEnv().searchDataDir as string);
}, 120_000);

const code = async (res: Response) => ((await res.json()) as { detail: { code: string } }).detail.code;

const searchBody = (over: Record<string, unknown> = {}) => ({
  name: "Robbery in PL",
  kind: "search",
  query: "robbery",
  params: { mode: "text", filter: 'jurisdiction = "PL"', sort: "decision_date:desc", url: "?q=robbery&jurisdiction=PL" },
  folder: "Robbery",
  ...over,
});

describe("saved searches need a session", () => {
  it("every route answers 401 without one", async () => {
    const anon = new Browser();
    const id = randomUUID();
    const calls = [
      anon.get("/api/saved-searches"),
      anon.post("/api/saved-searches", searchBody()),
      anon.get(`/api/saved-searches/${id}`),
      anon.patch(`/api/saved-searches/${id}`, { name: "x" }),
      anon.delete(`/api/saved-searches/${id}`),
      anon.post(`/api/saved-searches/${id}/run`, {}),
      anon.get("/api/settings/profile"),
      anon.patch("/api/settings/profile", { language: "pl" }),
      anon.post("/api/settings/password", { current_password: "x", new_password: "0123456789" }),
      anon.post("/api/settings/delete-account", { confirmation: "DELETE" }),
      anon.get("/api/admin/mail"),
    ];
    for (const res of await Promise.all(calls)) expect([res.url, res.status]).toEqual([res.url, 401]);
  });
});

describe("saved searches CRUD", () => {
  it("creates (201), lists by folder with paging, reads, patches, deletes; another user's id is a plain 404", async () => {
    const res = await alice.post("/api/saved-searches", searchBody());
    expect(res.status).toBe(201);
    const s = await res.json();
    expect(s).toMatchObject({
      name: "Robbery in PL",
      kind: "search",
      query: "robbery",
      folder: "Robbery",
      alert: { enabled: false, frequency: "weekly" },
      use_count: 0,
      last_run_at: null,
      params: { mode: "text", filter: 'jurisdiction = "PL"', sort: "decision_date:desc", url: "?q=robbery&jurisdiction=PL" },
    });
    const other = await (await alice.post("/api/saved-searches", searchBody({ name: "Elsewhere", folder: null }))).json();

    const inFolder = await (await alice.get("/api/saved-searches?folder=Robbery")).json();
    expect(inFolder.saved_searches.map((x: { id: string }) => x.id)).toEqual([s.id]);
    expect(inFolder.folders).toContainEqual({ name: "Robbery", count: 1 });
    const page2 = await (await alice.get("/api/saved-searches?page=2&limit=1")).json();
    expect(page2).toMatchObject({ page: 2, limit: 1, total: 2, has_more: false });
    expect(page2.saved_searches.map((x: { id: string }) => x.id)).toEqual([s.id]); // newest first: `other` is page 1
    expect((await alice.get("/api/saved-searches?limit=101")).status).toBe(422);

    const patched = await alice.patch(`/api/saved-searches/${s.id}`, { name: "Renamed", folder: "Other", alert: { enabled: true, frequency: "daily" } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: "Renamed", folder: "Other", alert: { enabled: true, frequency: "daily" } });

    // Bob: the same answer as for an id that does not exist (D-30), and nothing changes.
    for (const res of [
      await bob.get(`/api/saved-searches/${s.id}`),
      await bob.patch(`/api/saved-searches/${s.id}`, { name: "mine" }),
      await bob.delete(`/api/saved-searches/${s.id}`),
      await bob.post(`/api/saved-searches/${s.id}/run`, {}),
      await alice.get(`/api/saved-searches/${randomUUID()}`),
    ]) {
      expect([res.status, await code(res)]).toEqual([404, "SAVED_SEARCH_NOT_FOUND"]);
    }
    expect((await (await alice.get(`/api/saved-searches/${s.id}`)).json()).name).toBe("Renamed");
    const bad = await alice.get("/api/saved-searches/not-a-uuid");
    expect([bad.status, await code(bad)]).toEqual([400, "INVALID_SAVED_SEARCH_ID"]);

    expect((await alice.delete(`/api/saved-searches/${other.id}`)).status).toBe(204);
    expect((await alice.get(`/api/saved-searches/${other.id}`)).status).toBe(404);
  });

  it("an invalid filter, sort, params or name is refused (4xx) and nothing is stored", async () => {
    const count = async () => Number((await pool.query("select count(*) from public.saved_searches where user_id = $1", [aliceId])).rows[0].count);
    const before = await count();
    const cases: [Record<string, unknown>, number, string][] = [
      [searchBody({ params: { filter: "jurisdiction = " } }), 422, "FILTER_INVALID"],
      [searchBody({ params: { filter: "no_such_attribute = 1" } }), 422, "FILTER_INVALID"],
      [searchBody({ params: { sort: "full_text:asc" } }), 400, "INVALID_SORT"],
      [searchBody({ params: { mode: "telepathy" } }), 422, "VALIDATION_ERROR"],
      [searchBody({ params: { url: "https://evil.example/" } }), 422, "VALIDATION_ERROR"],
      [{ name: "x", kind: "extractions", params: { f: { offender_gender: ["robot"] } } }, 422, "FILTER_INVALID"],
      [{ name: "x", kind: "extractions", params: { f: { no_such_key: ["a"] } } }, 422, "FILTER_INVALID"],
      [{ name: "x", kind: "extractions", params: { f: { collection_ids: [] } } }, 400, "COLLECTION_IDS_NOT_ALLOWED"],
      [searchBody({ name: "" }), 422, "VALIDATION_ERROR"],
      [searchBody({ name: "x".repeat(201) }), 422, "VALIDATION_ERROR"],
      [searchBody({ folder: "x".repeat(101) }), 422, "VALIDATION_ERROR"],
      [searchBody({ kind: "other" }), 422, "VALIDATION_ERROR"],
    ];
    for (const [body, status, expected] of cases) {
      const res = await alice.post("/api/saved-searches", body);
      expect([JSON.stringify(body), res.status, await code(res)]).toEqual([JSON.stringify(body), status, expected]);
    }
    expect(await count()).toBe(before);
    // A PATCH with an invalid filter is refused the same way and the stored one is kept.
    const s = await (await alice.post("/api/saved-searches", searchBody({ name: "Kept filter" }))).json();
    const res = await alice.patch(`/api/saved-searches/${s.id}`, { params: { filter: "jurisdiction IN [" } });
    expect([res.status, await code(res)]).toEqual([422, "FILTER_INVALID"]);
    expect((await (await alice.get(`/api/saved-searches/${s.id}`)).json()).params.filter).toBe('jurisdiction = "PL"');
  });

  it("run returns the first page from the live search backends and bumps use_count and last_run_at", async () => {
    const s = await (await alice.post("/api/saved-searches", searchBody({ name: "Run me", query: "", params: { filter: 'jurisdiction = "PL"' } }))).json();
    const live = await (await alice.get(`/api/search/documents?q=&filter=${encodeURIComponent('jurisdiction = "PL"')}`)).json();
    const run = await alice.post(`/api/saved-searches/${s.id}/run`, {});
    expect(run.status).toBe(200);
    const body = await run.json();
    expect(body.kind).toBe("search");
    expect(body.results.hits.length).toBeGreaterThan(0);
    expect(body.results.hits.every((h: { jurisdiction: string }) => h.jurisdiction === "PL")).toBe(true);
    expect(body.results.estimated_total).toBe(live.estimated_total);
    expect(body.saved_search).toMatchObject({ id: s.id, use_count: 1 });
    expect(body.saved_search.last_run_at).not.toBeNull();

    const filters = { jurisdiction: ["UK"] };
    const e = await (await alice.post("/api/saved-searches", { name: "UK cohort", kind: "extractions", params: { f: filters, q: "", url: "?f=x" } })).json();
    const liveFilter = await (await alice.post("/api/extractions/base-schema/filter", { filters })).json();
    const runE = await (await alice.post(`/api/saved-searches/${e.id}/run`, {})).json();
    expect(runE.kind).toBe("extractions");
    expect(runE.results.total).toBe(liveFilter.total);
    expect(runE.results.results.map((r: { id: string }) => r.id)).toEqual(liveFilter.results.map((r: { id: string }) => r.id));
    expect((await (await alice.post(`/api/saved-searches/${e.id}/run`, {})).json()).saved_search.use_count).toBe(2);
  });

  it("at most SAVED_SEARCHES_MAX_PER_USER (200) per user → 409 SAVED_SEARCH_LIMIT", async () => {
    const { browser: carol, user } = await signedInBrowser();
    await pool.query(
      `insert into public.saved_searches (user_id, name, kind) select $1, 'bulk ' || g, 'search' from generate_series(1, 199) g`,
      [user.id],
    );
    expect((await carol.post("/api/saved-searches", searchBody())).status).toBe(201);
    const over = await carol.post("/api/saved-searches", searchBody());
    expect([over.status, await code(over)]).toEqual([409, "SAVED_SEARCH_LIMIT"]);
    expect(Number((await pool.query("select count(*) from public.saved_searches where user_id = $1", [user.id])).rows[0].count)).toBe(200);
  });
});

describe("settings", () => {
  it("profile: defaults, then display name, language and pausing alerts are stored", async () => {
    const { browser } = await signedInBrowser();
    expect(await (await browser.get("/api/settings/profile")).json()).toMatchObject({ display_name: null, language: "en", alerts_paused: false });
    const res = await browser.patch("/api/settings/profile", { display_name: "  Dr Kowalska ", language: "pl", alerts_paused: true });
    expect(await res.json()).toMatchObject({ display_name: "Dr Kowalska", language: "pl", alerts_paused: true });
    expect((await browser.patch("/api/settings/profile", { language: "de" })).status).toBe(422);
    expect((await browser.patch("/api/settings/profile", {})).status).toBe(422);
  });

  it("password: the current one is required (403), then the new one signs in and the old one does not", async () => {
    const { browser, user } = await signedInBrowser();
    const wrong = await browser.post("/api/settings/password", { current_password: "not-the-password", new_password: "a-new-password-1" });
    expect([wrong.status, await code(wrong)]).toEqual([403, "CURRENT_PASSWORD_WRONG"]);
    expect((await browser.post("/api/settings/password", { current_password: TEST_PASSWORD, new_password: "short" })).status).toBe(422);
    expect((await browser.post("/api/settings/password", { current_password: TEST_PASSWORD, new_password: "a-new-password-1" })).status).toBe(204);
    expect((await new Browser().post("/api/auth/sign-in", { email: user.email, password: "a-new-password-1" })).status).toBe(200);
    expect((await new Browser().post("/api/auth/sign-in", { email: user.email, password: TEST_PASSWORD })).status).toBe(400);
  });

  it("delete account: typed confirmation; deletes collections and saved searches, keeps searches as user_id null", async () => {
    const { browser, user } = await signedInBrowser();
    await browser.post("/api/saved-searches", searchBody());
    await browser.post("/api/collections", { name: "Mine" });
    await browser.get("/api/search/documents?q=robbery");
    const mismatch = await browser.post("/api/settings/delete-account", { confirmation: "delete" });
    expect([mismatch.status, await code(mismatch)]).toEqual([422, "CONFIRMATION_MISMATCH"]);
    expect((await browser.post("/api/settings/delete-account", { confirmation: "DELETE" })).status).toBe(204);
    const n = async (sql: string) => Number((await pool.query(sql, [user.id])).rows[0].n);
    expect(await n("select count(*) as n from auth.users where id = $1")).toBe(0);
    expect(await n("select count(*) as n from public.saved_searches where user_id = $1")).toBe(0);
    expect(await n("select count(*) as n from public.collections where user_id = $1")).toBe(0);
    expect((await new Browser().post("/api/auth/sign-in", { email: user.email, password: TEST_PASSWORD })).status).toBe(400);
  });
});

describe("GET /api/settings/embeddings", () => {
  it("everyone signed in sees the active embedder; the local default is local-hash, labelled lexical", async () => {
    expect((await new Browser().get("/api/settings/embeddings")).status).toBe(401);
    const body = await (await alice.get("/api/settings/embeddings")).json();
    expect(body.active).toEqual({ id: "local-hash", label: "lexical (no model configured)", dimensions: expect.any(Number) });
    expect(body.available.map((e: { id: string }) => e.id)).toContain("local-hash");
  });
});

describe("GET /api/admin/mail", () => {
  it("admins read the local SMTP server's messages; other users get 403", async () => {
    await pool.query("insert into public.mail_messages (subject, rcpt_to, text_body) values ('api-test mail', '{x@example.org}', 'hello')");
    expect((await alice.get("/api/admin/mail")).status).toBe(403);
    const { browser: admin } = await signedInBrowser({ admin: true });
    const page = await (await admin.get("/api/admin/mail?limit=100")).json();
    expect(page.messages.find((m: { subject: string }) => m.subject === "api-test mail")).toMatchObject({ rcpt_to: ["x@example.org"], text_body: "hello" });
    expect((await admin.get("/api/admin/mail?limit=101")).status).toBe(422);
  });
});
