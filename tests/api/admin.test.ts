import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { apiRoutes, effectiveAuth, fillPath, isCatchAll, key } from "../helpers/security-routes";
import { adminPool } from "../helpers/stack";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

/**
 * The admin area over real HTTP (5): the role matrix over every admin route, each route's body
 * and error codes, bans and revoked roles applied to tokens already issued, and the dashboard statistics.
 */

const pool = adminPool();
afterAll(() => pool.end());

type Signed = Awaited<ReturnType<typeof signedInBrowser>>;
let user: Signed;
let admin: Signed;

beforeAll(async () => {
  [user, admin] = await Promise.all([signedInBrowser(), signedInBrowser({ admin: true })]);
});

async function detail(res: Response) {
  return ((await res.json()) as { detail: { code: string; message: string } }).detail;
}

// Every route whose effective level is admin, read from app/api/**/route.ts: routes other areas add are covered too.
const PLACEHOLDER = new Proxy({} as Record<string, string>, { get: () => randomUUID() });
const ADMIN_ROUTES = apiRoutes().filter((h) => !isCatchAll(h) && effectiveAuth(h, fillPath(h.template, PLACEHOLDER)) === "admin");

// The admin's call must be served (past the role check) without a side effect on the state the suites beside this one
// share: with an empty body the backfill would extract every pending judgment (sampling and discovery tests read the
// completed set), the digest would mail every alert (the alert suite counts its mails) and event detection would merge
// the lines other suites made. These bodies are served and touch nothing of theirs.
const ADMIN_BODY: Record<string, unknown> = {
  "POST /api/admin/extractions/base-schema/backfill": { limit: 0 },
  "POST /api/admin/alerts/run": { dry_run: true },
  "POST /api/reasoning-lines/detect-events": { line_ids: [randomUUID()] },
};

describe("role matrix: every admin route × {anonymous, user, admin}", () => {
  it("finds the admin routes in the code", () => {
    const keys = ADMIN_ROUTES.map(key);
    for (const k of [
      "GET /api/admin/stats",
      "GET /api/admin/activity",
      "GET /api/admin/system/health",
      "GET /api/admin/documents/stats",
      "GET /api/admin/users",
      "PATCH /api/admin/users/[id]",
      "POST /api/dashboard/refresh",
    ]) {
      expect(keys).toContain(k);
    }
  });

  it.each(ADMIN_ROUTES.map((h) => [key(h), h] as const))("%s: 401 / 403 FORBIDDEN / served", async (_name, h) => {
    const path = fillPath(h.template, PLACEHOLDER);
    const body = h.method === "GET" ? undefined : {};
    const anon = await new Browser().request(h.method, path, body);
    expect(anon.status).toBe(401);
    const asUser = await user.browser.request(h.method, path, body);
    expect(asUser.status).toBe(403);
    const refused = await detail(asUser);
    expect(refused.code).toBe("FORBIDDEN");
    expect(refused.message).toBeTruthy();
    const asAdmin = await admin.browser.request(h.method, path, key(h) in ADMIN_BODY ? ADMIN_BODY[key(h)] : body);
    // Served: past the role check (a write with an empty body may be a 4xx of its own, never 401/403).
    expect([401, 403]).not.toContain(asAdmin.status);
    expect(asAdmin.status).toBeLessThan(500);
  });
});

// Every /admin page: anonymous → the sign-in redirect, a signed-in non-admin → HTTP 403 with the
// 403 page (not a 200 page that merely says 403), an admin → the panel.
const ADMIN_PAGES = ["/admin", "/admin/users", "/admin/activity", "/admin/system", "/admin/documents", "/admin/blog", "/admin/publications", "/admin/messages", "/admin/mail", "/admin/imports"];

describe("admin pages × {anonymous, user, admin}", () => {
  it.each(ADMIN_PAGES)("%s: sign-in redirect / 403 page / panel", async (path) => {
    const anon = await new Browser().get(path);
    expect([302, 303, 307, 308]).toContain(anon.status);
    const to = new URL(anon.headers.get("location") ?? "", "http://x");
    expect(to.pathname).toBe("/sign-in");
    expect(to.searchParams.get("next")).toBe(path);

    const asUser = await user.browser.get(path);
    expect(asUser.status).toBe(403);
    const page = await asUser.text();
    // The 403 page (app/forbidden.tsx) is in the answer (as HTML or, in development, in the page's RSC payload); the
    // panel's navigation, rendered only past the role check, is not.
    expect(page).toContain("admin-forbidden");
    expect(page).not.toContain('aria-label="Administration"');

    const asAdmin = await admin.browser.get(path);
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain('aria-label="Administration"');
  });
});

describe("GET /api/admin/*", () => {
  it("stats counts users, admins, judgments, searches and events", async () => {
    const { rows } = await pool.query<{ total: number; admins: number }>(
      "select count(*)::int total, count(*) filter (where raw_app_meta_data->>'role' = 'admin')::int admins from auth.users where deleted_at is null",
    );
    const res = await admin.browser.get("/api/admin/stats");
    expect(res.status).toBe(200);
    const body = await res.json();
    // Other suites may add users meanwhile: never fewer than counted just before.
    expect(body.users.total).toBeGreaterThanOrEqual(rows[0].total);
    expect(body.users.admins).toBeGreaterThanOrEqual(rows[0].admins);
    const j = await pool.query<{ n: number }>("select count(*)::int n from public.judgments");
    expect(body.judgments.total).toBe(j.rows[0].n);
    expect(body.judgments.PL + body.judgments.UK).toBe(j.rows[0].n);
    expect(body.searches).toHaveProperty("zero_result_rate");
    expect(typeof body.collections).toBe("number");
    expect(typeof body.events_7d).toBe("object");
  });

  it("activity lists events without query text and searches with the user's e-mail, newest first", async () => {
    await pool.query("insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id) values ($1, 0, 5, 'keyword', $2)", [
      "admin-activity-probe",
      user.user.id,
    ]);
    await pool.query("insert into public.app_events (name, properties, user_id, surface) values ('search_performed', $1, $2, 'web')", [
      JSON.stringify({ query: "secret words", result_count: 3 }),
      user.user.id,
    ]);
    const res = await admin.browser.get("/api/admin/activity?limit=20");
    expect(res.status).toBe(200);
    const body = await res.json();
    const text = JSON.stringify(body.items);
    expect(text).not.toContain("secret words");
    const search = body.items.find((i: { detail: string }) => i.detail === "admin-activity-probe");
    expect(search).toMatchObject({ kind: "search", user_email: user.user.email, hit_count: 0 });
    const event = body.items.find((i: { kind: string; name: string; user_email: string }) => i.kind === "event" && i.user_email === user.user.email);
    expect(event).toMatchObject({ name: "search_performed", detail: "web" });
    const times = body.items.map((i: { at: string }) => Date.parse(i.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The cursor pages backwards.
    const older = await (await admin.browser.get(`/api/admin/activity?limit=1&before=${encodeURIComponent(body.items[0].at)}`)).json();
    for (const i of older.items) expect(Date.parse(i.at)).toBeLessThan(Date.parse(body.items[0].at));
    expect((await admin.browser.get("/api/admin/activity?limit=0")).status).toBe(422);
    expect((await admin.browser.get("/api/admin/activity?before=yesterday")).status).toBe(422);
  });

  it("system health reports the process, the database, syncs and jobs", async () => {
    const body = await (await admin.browser.get("/api/admin/system/health")).json();
    expect(body.health.status).toMatch(/healthy|degraded/);
    expect(body.process.uptime_s).toBeGreaterThanOrEqual(0);
    expect(body.process.rss_bytes).toBeGreaterThan(0);
    expect(body.database_bytes).toBeGreaterThan(0);
    expect(Array.isArray(body.sync_runs)).toBe(true);
    expect(Array.isArray(body.jobs)).toBe(true);
  });

  it("documents stats split the corpus by extraction status and year", async () => {
    const body = await (await admin.browser.get("/api/admin/documents/stats")).json();
    const j = await pool.query<{ n: number; done: number }>(
      "select count(*)::int n, count(*) filter (where base_extraction_status = 'completed')::int done from public.judgments",
    );
    expect(body.total).toBe(j.rows[0].n);
    expect(body.extraction.base.completed ?? 0).toBe(j.rows[0].done);
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(sum(body.extraction.structure)).toBe(j.rows[0].n);
    expect(body.by_jurisdiction_year.reduce((a: number, y: { PL: number; UK: number }) => a + y.PL + y.UK, 0)).toBe(j.rows[0].n);
  });

  it("users: e-mail substring, paging, role and collections count; LIKE metacharacters are literal", async () => {
    const res = await admin.browser.get(`/api/admin/users?q=${encodeURIComponent(user.user.email.toUpperCase())}`);
    const body = await res.json();
    expect(body).toMatchObject({ total: 1, page: 1, per_page: 20, pages: 1 });
    expect(body.users[0]).toMatchObject({ id: user.user.id, email: user.user.email, role: "user", banned: false, collections: 0 });
    const wild = await (await admin.browser.get("/api/admin/users?q=%25")).json();
    expect(wild.total).toBe(0);
    const page = await (await admin.browser.get("/api/admin/users?limit=1&page=2")).json();
    expect(page.users).toHaveLength(1);
    expect(page.per_page).toBe(1);
    expect((await admin.browser.get("/api/admin/users?limit=101")).status).toBe(422);
    expect((await admin.browser.get("/api/admin/users?page=0")).status).toBe(422);
  });
});

describe("PATCH /api/admin/users/{id}", () => {
  it("grants and revokes the admin role; a revoked admin's live token gets 403 on the next request; audited", async () => {
    const other = await signedInBrowser({ admin: true });
    expect((await other.browser.get("/api/admin/stats")).status).toBe(200);
    const revoked = await admin.browser.patch(`/api/admin/users/${other.user.id}`, { role: "user" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: other.user.id, role: "user", banned: false });
    expect((await other.browser.get("/api/admin/stats")).status).toBe(403);

    const granted = await admin.browser.patch(`/api/admin/users/${user.user.id}`, { role: "admin" });
    expect(await granted.json()).toMatchObject({ role: "admin" });
    const meta = await pool.query<{ role: string | null }>("select raw_app_meta_data->>'role' as role from auth.users where id = $1", [user.user.id]);
    expect(meta.rows[0].role).toBe("admin");
    // Back to a plain user for the other tests.
    expect((await admin.browser.patch(`/api/admin/users/${user.user.id}`, { role: "user" })).status).toBe(200);

    const audit = await pool.query<{ action: string; actor_id: string; before: { role: string }; after: { role: string } }>(
      "select action, actor_id, before, after from public.admin_audit_log where target_id = $1 order by id",
      [other.user.id],
    );
    expect(audit.rows).toEqual([expect.objectContaining({ action: "user.revoke_admin", actor_id: admin.user.id })]);
    expect(audit.rows[0].before.role).toBe("admin");
    expect(audit.rows[0].after.role).toBe("user");
  });

  it("nobody revokes their own role or bans themselves (409 SELF_ROLE_CHANGE), and nothing changes", async () => {
    for (const body of [{ role: "user" }, { banned: true }]) {
      const res = await admin.browser.patch(`/api/admin/users/${admin.user.id}`, body);
      expect(res.status).toBe(409);
      expect((await detail(res)).code).toBe("SELF_ROLE_CHANGE");
    }
    expect((await admin.browser.get("/api/admin/stats")).status).toBe(200);
  });

  it("unknown and malformed ids are 404 USER_NOT_FOUND; bad bodies are 422", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const res = await admin.browser.patch(`/api/admin/users/${id}`, { role: "admin" });
      expect(res.status).toBe(404);
      expect((await detail(res)).code).toBe("USER_NOT_FOUND");
    }
    for (const body of [{}, { role: "owner" }, { banned: "yes" }, { role: "admin", extra: 1 }]) {
      const res = await admin.browser.patch(`/api/admin/users/${user.user.id}`, body);
      expect(res.status).toBe(422);
      expect((await detail(res)).code).toBe("VALIDATION_ERROR");
    }
  });

  it("a banned user is refused at once with the token already issued, cannot sign in, and can again once unbanned", async () => {
    const victim = await signedInBrowser();
    expect((await victim.browser.get("/api/collections")).status).toBe(200);
    const banned = await admin.browser.patch(`/api/admin/users/${victim.user.id}`, { banned: true });
    expect(await banned.json()).toMatchObject({ banned: true });
    expect((await victim.browser.get("/api/collections")).status).toBe(401);
    expect((await victim.browser.post("/api/collections", { name: "x" })).status).toBe(401);

    const again = await new Browser().post("/api/auth/sign-in", { email: victim.user.email, password: victim.user.password });
    expect(again.status).toBe(400);
    expect((await detail(again)).code).toBe("USER_BANNED");
    const listed = await (await admin.browser.get(`/api/admin/users?q=${encodeURIComponent(victim.user.email)}`)).json();
    expect(listed.users[0].banned).toBe(true);

    expect((await admin.browser.patch(`/api/admin/users/${victim.user.id}`, { banned: false })).status).toBe(200);
    const back = await new Browser().post("/api/auth/sign-in", { email: victim.user.email, password: victim.user.password });
    expect(back.status).toBe(200);
    const actions = await pool.query<{ action: string }>("select action from public.admin_audit_log where target_id = $1 order by id", [victim.user.id]);
    expect(actions.rows.map((r) => r.action)).toEqual(["user.ban", "user.unban"]);
  });
});

describe("dashboard statistics", () => {
  it("GET /api/dashboard/stats is public and matches the corpus", async () => {
    const res = await new Browser().get("/api/dashboard/stats");
    expect(res.status).toBe(200);
    const body = await res.json();
    const { rows } = await pool.query<{ n: number; pl: number; uk: number }>(
      "select count(*)::int n, count(*) filter (where jurisdiction='PL')::int pl, count(*) filter (where jurisdiction='UK')::int uk from public.judgments",
    );
    expect(body.total_judgments).toBe(rows[0].n);
    expect(body.by_jurisdiction).toEqual({ PL: rows[0].pl, UK: rows[0].uk });
    const perYear = body.decisions_per_year.reduce((a: number, y: { PL: number; UK: number }) => a + y.PL + y.UK, 0);
    expect(perYear).toBeLessThanOrEqual(rows[0].n);
    expect(body.top_courts.length).toBeGreaterThan(0);
    expect(body.data_completeness.overall).toBeGreaterThanOrEqual(0);
    expect(body.data_completeness.overall).toBeLessThanOrEqual(1);
    expect(Object.keys(body.data_completeness.by_field)).toContain("appeal_outcome");
    expect(Date.parse(body.computed_at)).not.toBeNaN();
    for (const k of ["by_court_level", "date_range", "by_decision_type", "top_keywords"]) expect(body).toHaveProperty(k);
  });

  it("POST /api/dashboard/refresh recomputes, is audited, and the third call in an hour is 429", async () => {
    await startInOneWindow(3600, 60);
    const refresher = await signedInBrowser({ admin: true });
    const first = await refresher.browser.post("/api/dashboard/refresh");
    expect(first.status).toBe(200);
    const stats = await first.json();
    const stored = await pool.query<{ at: Date }>("select computed_at at from public.dashboard_stats");
    expect(Date.parse(stats.computed_at)).toBe(stored.rows[0].at.getTime());
    // The app keeps the row in memory for a few seconds (DASHBOARD_STATS_CACHE_MS); a refresh replaces that copy, so
    // the public read right after it shows the new row, not the cached one.
    const read = await (await new Browser().get("/api/dashboard/stats")).json();
    expect(read.computed_at).toBe(stats.computed_at);
    expect((await refresher.browser.post("/api/dashboard/refresh")).status).toBe(200);
    const reread = await (await new Browser().get("/api/dashboard/stats")).json();
    expect(reread.computed_at).not.toBe(stats.computed_at);
    const third = await refresher.browser.post("/api/dashboard/refresh");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBeTruthy();
    const audit = await pool.query("select 1 from public.admin_audit_log where actor_id = $1 and action = 'dashboard.refresh'", [refresher.user.id]);
    expect(audit.rowCount).toBe(2);
  }, windowTestTimeout(60));
});
