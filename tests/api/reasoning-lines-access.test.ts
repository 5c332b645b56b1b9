/**
 * The spec's Reasoning lines access table over real HTTP: every method + path × {anonymous, user,
 * admin}; only UUIDs in the id position (anything else 404 from the web tier); /dag matched before /{id}; methods not
 * in the table answer 405 or 404, never 500; deletion is a status (members and events kept, deleted lines only for
 * admins asking include_deleted); every admin write is in the audit log.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

const pool = adminPool();
afterAll(async () => {
  // The lines are global: leave none behind for other suites (the audit rows stay, as they would).
  await pool.query("delete from public.reasoning_lines where label = any($1) or id in (select m.line_id from public.reasoning_line_members m where m.judgment_id = any($2::uuid[]))", [
    ["drift known answer"],
    docs,
  ]);
  await pool.end();
});

let anon: Browser;
let user: Browser;
let admin: Browser;
let adminId: string;
let docs: string[];
let lineA: string;
let lineToDelete: string;

beforeAll(async () => {
  anon = new Browser();
  ({ browser: user } = await signedInBrowser());
  const a = await signedInBrowser({ admin: true });
  admin = a.browser;
  adminId = a.user.id;
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments where base_extraction_status = 'completed' order by id limit 8")).rows.map((r) => r.id);
  const create = async (label: string, ids: string[]) => {
    const res = await admin.post("/api/reasoning-lines/create", { label, keywords: ["access"], judgment_ids: ids });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  lineA = await create("access matrix line", docs.slice(0, 4));
  lineToDelete = await create("line to delete", docs.slice(3, 6));
});

type Who = "anon" | "user" | "admin";
interface Row {
  method: "GET" | "POST" | "DELETE";
  path: () => string;
  body?: unknown;
  expect: Record<Who, number>;
}

const READ = { anon: 401, user: 200, admin: 200 };
const ADMIN_ONLY = (ok: number) => ({ anon: 401, user: 403, admin: ok });

// The spec's table, row for row (DELETE last: it changes the line the others read).
const TABLE: Row[] = [
  { method: "GET", path: () => "/api/reasoning-lines", expect: READ },
  { method: "GET", path: () => "/api/reasoning-lines/dag", expect: READ },
  { method: "GET", path: () => `/api/reasoning-lines/${lineA}`, expect: READ },
  { method: "GET", path: () => `/api/reasoning-lines/${lineA}/timeline`, expect: READ },
  { method: "GET", path: () => `/api/reasoning-lines/${lineA}/related`, expect: READ },
  { method: "POST", path: () => "/api/reasoning-lines/discover", body: { sample_size: 20, num_clusters: 2, seed: 1 }, expect: READ },
  { method: "POST", path: () => "/api/reasoning-lines/search", body: { q: "access" }, expect: READ },
  { method: "POST", path: () => "/api/reasoning-lines/create", body: { label: "matrix create", judgment_ids: ["DOC0"] }, expect: ADMIN_ONLY(201) },
  { method: "POST", path: () => "/api/reasoning-lines/detect-events", body: { line_ids: ["LINE"] }, expect: ADMIN_ONLY(200) },
  { method: "POST", path: () => `/api/reasoning-lines/${lineA}/drift-analysis`, expect: ADMIN_ONLY(200) },
  { method: "POST", path: () => `/api/reasoning-lines/${lineA}/analyze-outcomes`, expect: ADMIN_ONLY(200) },
  { method: "DELETE", path: () => `/api/reasoning-lines/${lineToDelete}`, expect: ADMIN_ONLY(200) },
];

const fill = (body: unknown) => (body === undefined ? undefined : JSON.parse(JSON.stringify(body).replace("DOC0", docs[0]).replace("LINE", lineA)));

describe("reasoning lines: the access table", () => {
  for (const row of TABLE) {
    it(`${row.method} ${row.path().replace(/undefined|[0-9a-f-]{36}/, "{id}")}`, async () => {
      // Anonymous and user first: a refused call must change nothing before the admin's call succeeds.
      for (const [who, b] of [["anon", anon], ["user", user], ["admin", admin]] as const) {
        const res = await b.request(row.method, row.path(), row.method === "GET" ? undefined : (fill(row.body) ?? {}));
        expect([who, res.status]).toEqual([who, row.expect[who]]);
      }
    });
  }

  it("answers with the documented shapes", async () => {
    const list = await (await user.get("/api/reasoning-lines?limit=100")).json();
    expect(list).toMatchObject({ page: 1, limit: 100 });
    expect(list.lines.map((l: { id: string }) => l.id)).toContain(lineA);
    const one = await (await user.get(`/api/reasoning-lines/${lineA}`)).json();
    expect(one).toMatchObject({ id: lineA, label: "access matrix line", status: "active", member_count: 4 });
    expect(one.members.map((m: { position: number }) => m.position)).toEqual([0, 1, 2, 3]);
    const dates = one.members.map((m: { decision_date: string }) => m.decision_date);
    expect([...dates].sort()).toEqual(dates);
    const timeline = await (await user.get(`/api/reasoning-lines/${lineA}/timeline`)).json();
    expect(timeline.entries.filter((e: { type: string }) => e.type === "member")).toHaveLength(4);
    const dag = await (await user.get("/api/reasoning-lines/dag")).json();
    expect(dag.nodes.map((n: { id: string }) => n.id)).toContain(lineA);
    // Acyclic by date: every edge runs from the earlier line to the later one.
    const first = new Map(dag.nodes.map((n: { id: string; first_date: string }) => [n.id, n.first_date]));
    for (const e of dag.edges as { source: string; target: string }[]) expect(String(first.get(e.source)) <= String(first.get(e.target))).toBe(true);
    const found = await (await user.post("/api/reasoning-lines/search", { q: "ACCESS matrix" })).json();
    expect(found.lines.map((h: { line: { id: string } }) => h.line.id)).toContain(lineA);
    const outcomes = await (await admin.post(`/api/reasoning-lines/${lineA}/analyze-outcomes`)).json();
    expect(outcomes).toMatchObject({ line_id: lineA, members: 4, mode: "no-model", summary: null });
  });

  it("only UUIDs in the id position: anything else is 404 from the web tier", async () => {
    for (const bad of ["not-a-uuid", "123", "' or 1=1 --", "00000000-0000-0000-0000-00000000000g"]) {
      const id = encodeURIComponent(bad);
      for (const [b, method, suffix] of [
        [user, "GET", ""],
        [user, "GET", "/timeline"],
        [user, "GET", "/related"],
        [admin, "GET", ""],
        [admin, "DELETE", ""],
        [admin, "POST", "/drift-analysis"],
        [admin, "POST", "/analyze-outcomes"],
      ] as const) {
        const res = await b.request(method, `/api/reasoning-lines/${id}${suffix}`, method === "GET" ? undefined : {});
        expect([bad, method, suffix, res.status]).toEqual([bad, method, suffix, 404]);
      }
    }
    // A well-formed id of no line: 404 as well.
    expect((await user.get(`/api/reasoning-lines/${randomUUID()}`)).status).toBe(404);
  });

  it("a non-UUID id from anonymous (401) or from a non-admin on an admin route (403): refused as for any id, before the id", async () => {
    const eventsBefore = (await pool.query("select count(*)::int as n from public.reasoning_line_events")).rows[0].n;
    const statusesBefore = (await pool.query("select count(*)::int as n from public.reasoning_lines where status = 'deleted'")).rows[0].n;
    for (const bad of ["not-a-uuid", "123", "' or 1=1 --", "00000000-0000-0000-0000-00000000000g", "dag2"]) {
      const id = encodeURIComponent(bad);
      const calls: [Browser, Who, "GET" | "POST" | "DELETE", string, number][] = [
        [anon, "anon", "GET", "", 401],
        [anon, "anon", "GET", "/timeline", 401],
        [anon, "anon", "GET", "/related", 401],
        [anon, "anon", "DELETE", "", 401],
        [anon, "anon", "POST", "/drift-analysis", 401],
        [anon, "anon", "POST", "/analyze-outcomes", 401],
        [user, "user", "DELETE", "", 403],
        [user, "user", "POST", "/drift-analysis", 403],
        [user, "user", "POST", "/analyze-outcomes", 403],
      ];
      for (const [b, who, method, suffix, want] of calls) {
        const res = await b.request(method, `/api/reasoning-lines/${id}${suffix}`, method === "GET" ? undefined : {});
        expect([bad, who, method, suffix, res.status]).toEqual([bad, who, method, suffix, want]);
      }
    }
    // Nothing was written: no event persisted, no line deleted.
    expect((await pool.query("select count(*)::int as n from public.reasoning_line_events")).rows[0].n).toBe(eventsBefore);
    expect((await pool.query("select count(*)::int as n from public.reasoning_lines where status = 'deleted'")).rows[0].n).toBe(statusesBefore);
  });

  it("GET /reasoning-lines/ (the spec's trailing slash) is the list route, by Next's redirect to the canonical path", async () => {
    const res = await user.get("/api/reasoning-lines/");
    expect(res.status).toBe(308);
    expect(new URL(res.headers.get("location") ?? "", "http://x").pathname).toBe("/api/reasoning-lines");
  });

  it("/dag is the DAG, not an id", async () => {
    const res = await user.get("/api/reasoning-lines/dag");
    expect(res.status).toBe(200);
    expect(Object.keys(await res.json()).sort()).toEqual(["edges", "nodes"]);
  });

  it("methods not in the table: 405 or 404, never 500", async () => {
    const calls: [string, string][] = [
      ["PUT", "/api/reasoning-lines"],
      ["POST", "/api/reasoning-lines"],
      ["DELETE", "/api/reasoning-lines"],
      ["PATCH", `/api/reasoning-lines/${lineA}`],
      ["POST", `/api/reasoning-lines/${lineA}`],
      ["PUT", `/api/reasoning-lines/${lineA}`],
      ["GET", "/api/reasoning-lines/discover"],
      ["GET", "/api/reasoning-lines/create"],
      ["GET", "/api/reasoning-lines/search"],
      ["GET", "/api/reasoning-lines/detect-events"],
      ["DELETE", "/api/reasoning-lines/dag"],
      ["POST", "/api/reasoning-lines/dag"],
      ["GET", `/api/reasoning-lines/${lineA}/drift-analysis`],
      ["GET", `/api/reasoning-lines/${lineA}/analyze-outcomes`],
      ["POST", `/api/reasoning-lines/${lineA}/timeline`],
      ["DELETE", `/api/reasoning-lines/${lineA}/related`],
      ["GET", `/api/reasoning-lines/${lineA}/unknown`],
    ];
    const results = await Promise.all(
      [user, admin].flatMap((b) => calls.map(async ([method, path]) => [method, path, (await b.request(method, path, method === "GET" ? undefined : {})).status] as const)),
    );
    for (const [method, path, status] of results) expect([method, path, [404, 405].includes(status)]).toEqual([method, path, true]);
  }, 90_000);

  it("deleting sets the status: members kept, hidden from users, shown to admins who ask", async () => {
    expect((await user.get(`/api/reasoning-lines/${lineToDelete}`)).status).toBe(404);
    expect((await user.get(`/api/reasoning-lines/${lineToDelete}?include_deleted=true`)).status).toBe(404);
    expect((await admin.get(`/api/reasoning-lines/${lineToDelete}`)).status).toBe(404);
    const shown = await admin.get(`/api/reasoning-lines/${lineToDelete}?include_deleted=true`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ status: "deleted", member_count: 3 });
    const userList = await (await user.get("/api/reasoning-lines?limit=100&include_deleted=true")).json();
    expect(userList.lines.map((l: { id: string }) => l.id)).not.toContain(lineToDelete);
    const adminList = await (await admin.get("/api/reasoning-lines?limit=100&include_deleted=true")).json();
    expect(adminList.lines.map((l: { id: string }) => l.id)).toContain(lineToDelete);
    expect((await admin.delete(`/api/reasoning-lines/${lineToDelete}`)).status).toBe(404);
  });

  it("every admin write is in the audit log", async () => {
    const { rows } = await pool.query<{ action: string }>("select action from public.admin_audit_log where actor_id = $1 order by id", [adminId]);
    const actions = new Set(rows.map((r) => r.action));
    for (const a of ["reasoning_line.create", "reasoning_line.delete"]) expect(actions).toContain(a);
    const { rows: del } = await pool.query("select before, after from public.admin_audit_log where actor_id = $1 and action = 'reasoning_line.delete'", [adminId]);
    expect(del[0]).toEqual({ before: { status: "active" }, after: { status: "deleted" } });
  });

  it("drift analysis flags the judgment that does not belong, once (known answer: the planted line plus an outsider)", async () => {
    const planted = (
      await pool.query<{ id: string }>(
        "select id::text from public.judgments where keywords @> $1 and base_extraction_status = 'completed' and decision_date < '2024-01-01' order by id limit 10",
        [["kryptowaluta"]],
      )
    ).rows.map((r) => r.id);
    // The newest UK judgment: last by date, so it is compared with the centroid of the planted members before it.
    const outsider = (await pool.query<{ id: string }>("select id::text from public.judgments where jurisdiction = 'UK' and base_extraction_status = 'completed' order by decision_date desc, id limit 1")).rows[0].id;
    expect(planted.length).toBeGreaterThanOrEqual(6);
    const created = await admin.post("/api/reasoning-lines/create", { label: "drift known answer", keywords: ["kryptowaluta"], judgment_ids: [...planted, outsider] });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const res = await admin.post(`/api/reasoning-lines/${id}/drift-analysis`);
    expect(res.status).toBe(200);
    const drift = await res.json();
    expect(drift.series.at(-1)).toMatchObject({ judgment_id: outsider, drift: true });
    expect(drift.series.filter((p: { drift: boolean }) => p.drift).map((p: { judgment_id: string }) => p.judgment_id)).toEqual([outsider]);
    expect(drift.events.map((e: { kind: string; details: { judgment_id: string } }) => [e.kind, e.details.judgment_id])).toEqual([["drift", outsider]]);
    // Again: the same drift is not stored twice; the timeline shows it at the outsider's date.
    expect((await (await admin.post(`/api/reasoning-lines/${id}/drift-analysis`)).json()).events).toEqual([]);
    const timeline = await (await user.get(`/api/reasoning-lines/${id}/timeline`)).json();
    const events = timeline.entries.filter((e: { type: string }) => e.type === "event");
    expect(events).toHaveLength(1);
    expect(timeline.entries.at(-1)).toMatchObject({ type: "event", event: { kind: "drift" } });
  });

  it("bad bodies are 422 and change nothing", async () => {
    const before = (await pool.query("select count(*)::int as n from public.reasoning_lines")).rows[0].n;
    for (const body of [{}, { label: "x" }, { label: "x", judgment_ids: [] }, { label: "x", judgment_ids: ["nope"] }, { label: "", judgment_ids: [docs[0]] }, { label: "x", judgment_ids: [randomUUID()] }]) {
      expect([body, (await admin.post("/api/reasoning-lines/create", body)).status]).toEqual([body, 422]);
    }
    for (const body of [{ sample_size: 5 }, { num_clusters: 1 }, { num_clusters: 21 }, { seed: 1.5 }]) {
      expect([body, (await user.post("/api/reasoning-lines/discover", body)).status]).toEqual([body, 422]);
    }
    expect((await user.post("/api/reasoning-lines/search", { q: "" })).status).toBe(422);
    expect((await pool.query("select count(*)::int as n from public.reasoning_lines")).rows[0].n).toBe(before);
  });
});

interface RateLimitBody {
  error: string;
  status_code: number;
}

/** The reference 429: status, Retry-After in seconds, and the body shape (as the topic-run quota, tests/api/topics.test.ts). */
async function expectQuota429(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await res.json()) as RateLimitBody).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
}

describe("reasoning lines: the hourly quotas", () => {
  it("discover (QUOTA_DISCOVER_PER_HOUR = 10): the 11th well-formed call in an hour is 429; refused bodies cost nothing", async () => {
    await startInOneWindow(3600, 90);
    const { browser } = await signedInBrowser();
    expect((await browser.post("/api/reasoning-lines/discover", { sample_size: 5 })).status).toBe(422);
    for (let i = 0; i < 10; i++) {
      const r = await browser.post("/api/reasoning-lines/discover", { sample_size: 20, num_clusters: 2, seed: i });
      expect([i, r.status]).toEqual([i, 200]);
    }
    await expectQuota429(await browser.post("/api/reasoning-lines/discover", { sample_size: 20, num_clusters: 2 }));
    // Another user has an allowance of their own.
    expect((await user.post("/api/reasoning-lines/discover", { sample_size: 20, num_clusters: 2, seed: 99 })).status).toBe(200);
  }, windowTestTimeout(90));

  it("reasoning-line writes (QUOTA_REASONING_WRITES_PER_HOUR = 30, one allowance over every admin write): the 31st is 429 and changes nothing", async () => {
    await startInOneWindow(3600, 90);
    const { browser: writer } = await signedInBrowser({ admin: true });
    // A write to an id that cannot exist is a 404 and costs nothing (checked before the quota): the 30 below still pass.
    for (const bad of ["not-a-uuid", "123"]) {
      expect((await writer.post(`/api/reasoning-lines/${bad}/analyze-outcomes`)).status).toBe(404);
      expect((await writer.post(`/api/reasoning-lines/${bad}/drift-analysis`)).status).toBe(404);
      expect((await writer.delete(`/api/reasoning-lines/${bad}`)).status).toBe(404);
    }
    const target = (await (await writer.post("/api/reasoning-lines/create", { label: "quota line", keywords: ["access"], judgment_ids: docs.slice(0, 2) })).json()) as {
      id: string;
    };
    // analyze-outcomes persists nothing: 29 more writes touch no shared state.
    for (let i = 0; i < 29; i++) {
      const r = await writer.post(`/api/reasoning-lines/${target.id}/analyze-outcomes`);
      expect([i, r.status]).toEqual([i, 200]);
    }
    await expectQuota429(await writer.post(`/api/reasoning-lines/${target.id}/analyze-outcomes`));
    // The same allowance covers the other writes: a delete is refused too, and the line stays active.
    await expectQuota429(await writer.delete(`/api/reasoning-lines/${target.id}`));
    await expectQuota429(await writer.post("/api/reasoning-lines/create", { label: "quota line 2", judgment_ids: [docs[0]] }));
    expect((await pool.query("select status from public.reasoning_lines where id = $1", [target.id])).rows[0].status).toBe("active");
    expect((await pool.query("select count(*)::int as n from public.reasoning_lines where label = 'quota line 2'")).rows[0].n).toBe(0);
    // Reads are not writes: the same admin still reads the line.
    expect((await writer.get(`/api/reasoning-lines/${target.id}`)).status).toBe(200);
    // Another admin has an allowance of their own.
    expect((await admin.post(`/api/reasoning-lines/${target.id}/analyze-outcomes`)).status).toBe(200);
    await pool.query("delete from public.reasoning_lines where id = $1", [target.id]);
  }, 120_000);
});
