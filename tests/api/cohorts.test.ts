import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateJudgment } from "../../supabase/seed/generate";
import { seedCorpus } from "../../supabase/seed/corpus";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { searchFilterExpression, searchFiltersFromParams } from "@/lib/client/search-url-state";

/**
 * Cohorts over real HTTP: compare two cohorts (numbers checked against a hand computation on two small collections,
 * and against SQL for medians), the /api/v1 twin with its key and ownership rules, citing a cohort and reading it by
 * its short link anonymously (including after the corpus changed: a judgment inserted the seed's way and then deleted,
 * with the corpus version bumped as a reseed does), and the search history list and deletes (one, all, another user's).
 */
const pool = adminPool();
type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;
const code = async (res: Response) => ((await json(res)).detail as { code?: string } | undefined)?.code;

let alice: Browser;
let bob: Browser;
let aliceId: string;
let bobId: string;
let aliceKey: string;
let bobKey: string;
let pl: string[] = [];
let uk: string[] = [];

async function createKey(b: Browser) {
  const res = await b.post("/api/settings/api-keys", { name: "cohorts" });
  expect(res.status).toBe(201);
  return ((await json(res)) as { key: string }).key;
}

async function collectionOf(b: Browser, name: string, ids: string[]): Promise<string> {
  const res = await b.post("/api/collections", { name, document_ids: ids });
  expect(res.status).toBe(201);
  return ((await json(res)) as { id: string }).id;
}

beforeAll(async () => {
  const [a, b] = await Promise.all([signedInBrowser(), signedInBrowser()]);
  alice = a.browser;
  bob = b.browser;
  aliceId = a.user.id;
  bobId = b.user.id;
  [aliceKey, bobKey] = await Promise.all([createKey(alice), createKey(bob)]);
  const pick = async (j: string) =>
    (await pool.query<{ id: string }>("select id::text from public.judgments where jurisdiction = $1 and base_extraction_status = 'completed' order by id limit 10", [j])).rows.map((r) => r.id);
  [pl, uk] = await Promise.all([pick("PL"), pick("UK")]);
  expect(pl.length).toBe(10);
  expect(uk.length).toBe(10);
}, 120_000);

afterAll(() => pool.end());

describe("POST /api/cohorts/compare", () => {
  it("answers sizes, shares and Newcombe intervals that match a hand computation", async () => {
    // A: 6 Polish + 4 UK judgments; B: 3 Polish + 6 UK.
    const a = await collectionOf(alice, "A", [...pl.slice(0, 6), ...uk.slice(0, 4)]);
    const b = await collectionOf(alice, "B", [...pl.slice(6, 9), ...uk.slice(4, 11)]);
    const res = await alice.post("/api/cohorts/compare", { a: { collection_id: a }, b: { collection_id: b }, fields: ["jurisdiction", "sentence_custody_months"] });
    expect(res.status).toBe(200);
    const body = (await json(res)) as {
      a: { size: number };
      b: { size: number };
      fields: Array<Json & { field: string; values?: Json[]; a?: Json; b?: Json }>;
    };
    expect(body.a.size).toBe(10);
    expect(body.b.size).toBe(9);
    const jur = body.fields.find((f) => f.field === "jurisdiction")!;
    expect(jur).toMatchObject({ kind: "categorical", multi: false, a_covered: 10, b_covered: 9 });
    const plRow = jur.values!.find((v) => v.value === "PL")!;
    // By hand: p1 = 6/10, p2 = 3/9. Wilson 95 % (z = 1.95996): 6/10 → [0.3127, 0.8318], 3/9 → [0.1206, 0.6458].
    // diff = 0.2667; low = 0.2667 − √((0.6 − 0.3127)² + (0.6458 − 0.3333)²) = −0.1578;
    // high = 0.2667 + √((0.8318 − 0.6)² + (0.3333 − 0.1206)²) = 0.5814.
    expect(plRow).toMatchObject({ a_count: 6, b_count: 3 });
    expect(plRow.a_share).toBeCloseTo(0.6, 10);
    expect(plRow.b_share).toBeCloseTo(1 / 3, 10);
    expect(plRow.diff).toBeCloseTo(0.2667, 4);
    expect(plRow.ci_low).toBeCloseTo(-0.1578, 3);
    expect(plRow.ci_high).toBeCloseTo(0.5814, 3);

    // Medians against Postgres's own percentile over the same members.
    const med = async (ids: string[]) =>
      (await pool.query<{ m: number | null; n: number }>(
        "select percentile_cont(0.5) within group (order by base_sentence_custody_months)::float8 as m, count(base_sentence_custody_months)::int as n from public.judgments where id = any($1::uuid[])",
        [ids],
      )).rows[0];
    const num = body.fields.find((f) => f.field === "sentence_custody_months")!;
    expect(num.kind).toBe("numeric");
    const [ma, mb] = await Promise.all([med([...pl.slice(0, 6), ...uk.slice(0, 4)]), med([...pl.slice(6, 9), ...uk.slice(4, 11)])]);
    expect(num.a).toMatchObject({ n: ma.n, median: ma.m });
    expect(num.b).toMatchObject({ n: mb.n, median: mb.m });
    if (ma.m !== null && mb.m !== null) {
      expect(num.diff).toBe(ma.m - mb.m);
      expect(num.ci_low as number).toBeLessThanOrEqual(num.ci_high as number);
    } else expect(num.diff).toBeNull();

    // Deterministic: the same request gives the same bootstrap interval.
    const again = await json(await alice.post("/api/cohorts/compare", { a: { collection_id: a }, b: { collection_id: b }, fields: ["jurisdiction", "sentence_custody_months"] }));
    expect(again).toEqual(body);
  });

  it("compares two filters through the one filter parser, and refuses bad input", async () => {
    const res = await alice.post("/api/cohorts/compare", { a: { filters: { jurisdiction: ["PL"] } }, b: { filters: { jurisdiction: ["UK"] } }, fields: ["jurisdiction", "decision_date"] });
    expect(res.status).toBe(200);
    const body = (await json(res)) as { a: { size: number }; b: { size: number }; fields: Array<{ field: string; kind: string; values: Json[] }> };
    const counts = (await pool.query<{ j: string; n: number }>("select jurisdiction as j, count(*)::int as n from public.judgments where base_extraction_status = 'completed' group by 1")).rows;
    expect(body.a.size).toBe(counts.find((c) => c.j === "PL")!.n);
    expect(body.b.size).toBe(counts.find((c) => c.j === "UK")!.n);
    expect(body.fields[0].values.find((v) => v.value === "PL")).toMatchObject({ a_share: 1, b_share: 0, diff: 1 });
    expect(body.fields[1].kind).toBe("year");

    const bad = [
      [{ a: { filters: { no_such_key: 1 } }, b: { filters: {} }, fields: ["jurisdiction"] }, 422, "FILTER_INVALID"],
      [{ a: { filters: {} }, b: { filters: {} }, fields: ["case_name"] }, 422, "FIELD_NOT_AGGREGABLE"],
      [{ a: { filters: {}, collection_id: randomUUID() }, b: { filters: {} }, fields: ["jurisdiction"] }, 422, "VALIDATION_ERROR"],
      [{ a: {}, b: { filters: {} }, fields: ["jurisdiction"] }, 422, "VALIDATION_ERROR"],
      [{ a: { filters: {} }, b: { filters: {} }, fields: [] }, 422, "VALIDATION_ERROR"],
    ] as const;
    for (const [req, status, c] of bad) {
      const r = await alice.post("/api/cohorts/compare", req);
      expect([JSON.stringify(req), r.status, await code(r)]).toEqual([JSON.stringify(req), status, c]);
    }
    expect((await new Browser().post("/api/cohorts/compare", { a: { filters: {} }, b: { filters: {} }, fields: ["jurisdiction"] })).status).toBe(401);
  });

  it("another user's collection is 404 COLLECTION_NOT_FOUND, like one that does not exist", async () => {
    const mine = await collectionOf(alice, "private", pl.slice(0, 2));
    for (const id of [mine, randomUUID()]) {
      const res = await bob.post("/api/cohorts/compare", { a: { collection_id: id }, b: { filters: {} }, fields: ["jurisdiction"] });
      expect([res.status, await code(res)]).toEqual([404, "COLLECTION_NOT_FOUND"]);
    }
  });
});

describe("POST /api/v1/cohorts/compare", () => {
  it("needs a key, reads the key's user's collection, and 404s another user's", async () => {
    const body = { a: { filters: { jurisdiction: ["PL"] } }, b: { filters: { jurisdiction: ["UK"] } }, fields: ["jurisdiction"] };
    expect((await new Browser().post("/api/v1/cohorts/compare", body)).status).toBe(401);
    const web = await json(await alice.post("/api/cohorts/compare", body));
    const v1 = await new Browser().post("/api/v1/cohorts/compare", body, { "x-api-key": aliceKey });
    expect(v1.status).toBe(200);
    expect(await json(v1)).toEqual(web);

    const mine = await collectionOf(alice, "v1", [...pl.slice(0, 3), uk[0]]);
    const own = await new Browser().post("/api/v1/cohorts/compare", { a: { collection_id: mine }, b: { filters: {} }, fields: ["jurisdiction"] }, { "x-api-key": aliceKey });
    expect(own.status).toBe(200);
    expect(((await json(own)) as { a: { size: number } }).a.size).toBe(4);
    const foreign = await new Browser().post("/api/v1/cohorts/compare", { a: { collection_id: mine }, b: { filters: {} }, fields: ["jurisdiction"] }, { "x-api-key": bobKey });
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toMatchObject({ status_code: 404, details: { code: "COLLECTION_NOT_FOUND" } });
  });
});

describe("cited cohorts", () => {
  it("POST /api/cohorts → 201 {id, url}; anyone with the link reads the same members", async () => {
    const res = await alice.post("/api/cohorts", { filters: { jurisdiction: ["UK"] }, seed: 42 });
    expect(res.status).toBe(201);
    const made = (await json(res)) as { id: string; url: string; members_count: number; corpus_version: string | null };
    expect(made.id).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(made.url.endsWith(`/c/${made.id}`)).toBe(true);
    const { rows } = await pool.query<{ n: number; v: string | null }>(
      "select (select count(*)::int from public.judgments where jurisdiction = 'UK' and base_extraction_status = 'completed') as n, public.corpus_version_id() as v",
    );
    expect(made.members_count).toBe(rows[0].n);
    expect(made.corpus_version).toBe(rows[0].v);

    const anon = await new Browser().get(`/api/cohorts/${made.id}`);
    expect(anon.status).toBe(200);
    const got = (await json(anon)) as Json & { current: Json; members: Json[] };
    expect(got).toMatchObject({ id: made.id, filters: { jurisdiction: ["UK"] }, seed: 42, corpus_version: rows[0].v, members_count: rows[0].n });
    expect(got.current).toMatchObject({ changed: false, members_count: rows[0].n, added: [], removed: [], added_count: 0, removed_count: 0 });
    expect(got.members.length).toBe(Math.min(50, rows[0].n));
  });

  it("refuses what it must: no session, collection_ids, a bad filter; unknown ids are 404", async () => {
    expect((await new Browser().post("/api/cohorts", { filters: {} })).status).toBe(401);
    const withIds = await alice.post("/api/cohorts", { filters: { collection_ids: [randomUUID()] } });
    expect([withIds.status, await code(withIds)]).toEqual([400, "COLLECTION_IDS_NOT_ALLOWED"]);
    const bad = await alice.post("/api/cohorts", { filters: { jurisdiction: ["XX"] } });
    expect([bad.status, await code(bad)]).toEqual([422, "FILTER_INVALID"]);
    expect((await alice.post("/api/cohorts", {})).status).toBe(422);
    // Only the short-id shape is public: anyone gets 404 for a well-formed unknown id; other paths need a session.
    const none = await new Browser().get("/api/cohorts/AAAAAAAAAAAA");
    expect([none.status, await code(none)]).toEqual([404, "COHORT_NOT_FOUND"]);
    for (const id of ["short", randomUUID()]) {
      expect((await new Browser().get(`/api/cohorts/${id}`)).status).toBe(401);
      const r = await alice.get(`/api/cohorts/${id}`);
      expect([id, r.status, await code(r)]).toEqual([id, 404, "COHORT_NOT_FOUND"]);
    }
  });

  it("after the corpus changes, shows the same filter now and the judgments added and removed", async () => {
    // A judgment of another seed, inserted next to the corpus the way the seed writes rows; its filter is its own
    // jurisdiction and court so the cohort is small and certainly gains it.
    let seed = 770_001;
    while (generateJudgment(seed, 0).base_extraction_status !== "completed") seed++;
    const row = generateJudgment(seed, 0);
    const filters = { jurisdiction: [row.jurisdiction], court_name: [row.court_name] };
    const before = (await pool.query<{ seed: string; size: number; generator_version: string }>("select seed, size, generator_version from public.corpus_version")).rows[0];
    const bump = () =>
      pool.query("insert into public.corpus_version (id, seed, size, generator_version) values (true, 1, 1, 'test') on conflict (id) do update set size = public.corpus_version.size + 1, seeded_at = now()");
    try {
      const first = (await json(await alice.post("/api/cohorts", { filters }))) as { id: string; members_count: number; corpus_version: string | null };
      await seedCorpus(stackEnv().databaseUrl, { size: 1, seed });
      await bump();
      const added = (await pool.query<{ id: string }>("select id::text from public.judgments where source_id = $1", [row.source_id])).rows[0].id;
      const later = (await json(await new Browser().get(`/api/cohorts/${first.id}`))) as Json & { current: Json & { added: string[]; removed: string[] } };
      expect(later.members_count).toBe(first.members_count);
      expect(later.corpus_version).toBe(first.corpus_version);
      expect(later.current.corpus_version).not.toBe(first.corpus_version);
      expect(later.current).toMatchObject({ changed: true, members_count: first.members_count + 1, added_count: 1, removed_count: 0, removed: [] });
      expect(later.current.added).toEqual([added]);

      // Cited with the new judgment in it, then the judgment is deleted: it is reported removed.
      const second = (await json(await alice.post("/api/cohorts", { filters }))) as { id: string; members_count: number };
      expect(second.members_count).toBe(first.members_count + 1);
      await pool.query("delete from public.judgments where id = $1", [added]);
      await bump();
      const gone = (await json(await new Browser().get(`/api/cohorts/${second.id}`))) as Json & { current: Json };
      expect(gone.current).toMatchObject({ changed: true, members_count: first.members_count, added: [], removed: [added], removed_count: 1 });
      // And the first citation matches its stored members again, though the corpus version moved on.
      const back = (await json(await new Browser().get(`/api/cohorts/${first.id}`))) as Json & { current: Json };
      expect(back.current).toMatchObject({ changed: true, added_count: 0, removed_count: 0 });
    } finally {
      await pool.query("delete from public.judgments where source_id like $1", [`demo-${seed}-%`]);
      if (before) {
        await pool.query("update public.corpus_version set seed = $1, size = $2, generator_version = $3", [before.seed, before.size, before.generator_version]);
      } else await pool.query("delete from public.corpus_version");
    }
  });
});

describe("search history", () => {
  async function record(userId: string, query: string, minutesAgo: number): Promise<string> {
    const { rows } = await pool.query<{ id: string }>(
      "insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id, created_at) values ($1, 3, 5, 'hybrid', $2, now() - make_interval(mins => $3)) returning id::text",
      [query, userId, minutesAgo],
    );
    return rows[0].id;
  }

  it("lists the caller's own searches newest first with a total, pages, and deletes one and all", async () => {
    const ids = [await record(aliceId, "oldest", 30), await record(aliceId, "middle", 20), await record(aliceId, "newest", 10)];
    const bobs = await record(bobId, "bob's secret", 5);

    expect((await new Browser().get("/api/search/analytics/history")).status).toBe(401);
    const page1 = (await json(await alice.get("/api/search/analytics/history?limit=2&offset=0"))) as { results: Json[]; total: number };
    expect(page1.total).toBe(3);
    expect(page1.results.map((r) => r.query)).toEqual(["newest", "middle"]);
    const page2 = (await json(await alice.get("/api/search/analytics/history?limit=2&offset=2"))) as { results: Json[] };
    expect(page2.results.map((r) => r.query)).toEqual(["oldest"]);

    // Bob cannot delete Alice's row (the same 404 as an id that does not exist), and it stays.
    for (const id of [ids[1], randomUUID(), "not-a-uuid"]) {
      const r = await bob.delete(`/api/search/analytics/history/${id}`);
      expect([id, r.status, await code(r)]).toEqual([id, 404, "SEARCH_HISTORY_ENTRY_NOT_FOUND"]);
    }
    expect((await pool.query("select 1 from public.search_analytics where id = $1", [ids[1]])).rowCount).toBe(1);

    expect((await alice.delete(`/api/search/analytics/history/${ids[1]}`)).status).toBe(204);
    const after = (await json(await alice.get("/api/search/analytics/history"))) as { results: Json[]; total: number };
    expect(after.results.map((r) => r.query)).toEqual(["newest", "oldest"]);
    expect(after.total).toBe(2);

    const cleared = await alice.delete("/api/search/analytics/history");
    expect(cleared.status).toBe(200);
    expect(await json(cleared)).toEqual({ deleted: 2 });
    expect(((await json(await alice.get("/api/search/analytics/history"))) as { total: number }).total).toBe(0);
    // Bob's history is untouched by Alice's "delete all".
    expect((await pool.query("select 1 from public.search_analytics where id = $1", [bobs])).rowCount).toBe(1);
  });

  it("keeps each search's filters and sort with its row, readable only by its owner; an account's deletion drops them", async () => {
    const { browser: carol, user } = await signedInBrowser();
    const tag = `hist${Date.now()}`;
    const state = { q: `${tag} rozbój`, mode: "text" as const, jurisdiction: ["PL" as const], from: "2012-01-01", to: "", court: "Sąd Okręgowy w Łodzi", sort: "newest" as const, page: 1 };
    const filter = searchFilterExpression(state);
    const searches = [
      `/api/search/documents?q=${encodeURIComponent(state.q)}&filter=${encodeURIComponent(filter)}&sort=newest`,
      `/api/search/documents?q=${tag}+structured&filters=${encodeURIComponent(JSON.stringify({ jurisdiction: ["UK"] }))}`,
      `/api/search/documents?q=${tag}+plain`,
    ];
    for (const path of searches) expect((await carol.get(path)).status, path).toBe(200);
    // Rows are queued and written within about a second.
    let rows: Array<{ query: string; params: { filter?: string; filters?: Json; sort?: string } | null }> = [];
    for (let i = 0; i < 60 && rows.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 250));
      rows = ((await json(await carol.get("/api/search/analytics/history"))) as { results: typeof rows }).results;
    }
    const byQuery = new Map(rows.map((r) => [r.query, r.params]));
    expect(byQuery.get(state.q)).toEqual({ filter, sort: "newest" });
    expect(searchFiltersFromParams(byQuery.get(state.q)!)).toEqual({ jurisdiction: ["PL"], from: "2012-01-01", to: "", court: "Sąd Okręgowy w Łodzi", sort: "newest" });
    expect(byQuery.get(`${tag} structured`)).toEqual({ filters: { jurisdiction: ["UK"] } });
    expect(byQuery.get(`${tag} plain`)).toBeNull();

    // Another user's history never shows them.
    const bobs = (await json(await bob.get("/api/search/analytics/history?limit=100"))) as { results: Array<{ query: string }> };
    expect(bobs.results.some((r) => r.query.startsWith(tag))).toBe(false);

    // The account goes: its rows stay anonymous (the query text, for statistics), their filters go.
    await pool.query("delete from auth.users where id = $1", [user.id]);
    const left = await pool.query<{ user_id: string | null; params: unknown }>("select user_id, params from public.search_analytics where query like $1", [`${tag}%`]);
    expect(left.rowCount).toBe(3);
    for (const r of left.rows) expect(r).toEqual({ user_id: null, params: null });
  });
});

