import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { Browser } from "../helpers/http";
import { userWithToken } from "../helpers/supabase";

const pool = adminPool();

let alice: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  alice = await userWithToken();
  bob = await userWithToken();
  const rec = "select public.record_search($1, $2, $3, $4, $5)";
  await pool.query(rec, ["alice first", 3, 10, "text", alice.id]);
  await pool.query(rec, ["alice second", 0, 12, "hybrid", alice.id]);
  await pool.query(rec, ["bob only", 7, 9, "text", bob.id]);
});

afterAll(async () => {
  await pool.end();
});

describe("GET /api/search/analytics/history", () => {
  it("answers 401 without a session", async () => {
    const res = await new Browser().get("/api/search/analytics/history");
    expect(res.status).toBe(401);
  });

  it("returns only the caller's own rows, for each of two users", async () => {
    const b = new Browser();
    const a = await b.get("/api/search/analytics/history", { authorization: `Bearer ${alice.token}` });
    expect(a.status).toBe(200);
    const aBody = (await a.json()) as { results: { query: string }[] };
    expect(aBody.results.map((r) => r.query)).toEqual(["alice second", "alice first"]);
    const bRes = await b.get("/api/search/analytics/history?limit=5", { authorization: `Bearer ${bob.token}` });
    const bBody = (await bRes.json()) as { results: { query: string; hit_count: number }[]; limit: number };
    expect(bBody.results).toEqual([expect.objectContaining({ query: "bob only", hit_count: 7 })]);
    expect(bBody.limit).toBe(5);
  });

  it("refuses out-of-range paging with 422", async () => {
    const res = await new Browser().get("/api/search/analytics/history?limit=1000", { authorization: `Bearer ${alice.token}` });
    expect(res.status).toBe(422);
  });

  it("caps offset at 10,000 like the other pages: past it 422 naming offset, never a 500 (security review L2)", async () => {
    const auth = { authorization: `Bearer ${alice.token}` };
    const b = new Browser();
    const edge = await b.get("/api/search/analytics/history?offset=10000", auth);
    expect(edge.status).toBe(200);
    expect(await edge.json()).toMatchObject({ results: [], offset: 10000 });
    for (const offset of ["10001", "99999999999"]) {
      const res = await b.get(`/api/search/analytics/history?offset=${offset}`, auth);
      expect(res.status).toBe(422);
      const body = (await res.json()) as { detail: { code: string; fields: { field: string }[] } };
      expect(body.detail.code).toBe("VALIDATION_ERROR");
      expect(body.detail.fields.map((f) => f.field)).toContain("offset");
    }
  });
});

describe("a search writes its analytics row (queued, written in a batch after the answer)", () => {
  it("records the first page of a signed-in search, attributed to the user, and not later pages", async () => {
    const carol = await userWithToken();
    const auth = { authorization: `Bearer ${carol.token}` };
    const b = new Browser();
    const q = `analytics probe ${Date.now()}`;
    expect((await b.get(`/api/search/documents?q=${encodeURIComponent(q)}`, auth)).status).toBe(200);
    expect((await b.get(`/api/search/documents?q=${encodeURIComponent(q)}&offset=20`, auth)).status).toBe(200);
    // The row waits in the app's queue at most SEARCH_ANALYTICS_FLUSH_MS (1 s by default).
    let rows: { query: string; mode: string }[] = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = ((await (await b.get("/api/search/analytics/history", auth)).json()) as { results: typeof rows }).results;
    }
    expect(rows).toEqual([expect.objectContaining({ query: q, mode: "text" })]);
  });
});

describe("autocomplete writes its analytics row (R-VER-007, spec audit defect 3)", () => {
  /** The search_analytics rows of one query, as the database holds them (queued, written within about a second). */
  async function rowsOf(q: string, want = 1) {
    let rows: { user_id: string | null; mode: string; hit_count: number }[] = [];
    for (let i = 0; i < 50 && rows.length < want; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = (await pool.query("select user_id, mode, hit_count from public.search_analytics where query = $1", [q])).rows;
    }
    return rows;
  }

  it("a bearer's autocomplete is attributed to the user and shows in their history with mode autocomplete", async () => {
    const dave = await userWithToken();
    const auth = { authorization: `Bearer ${dave.token}` };
    const b = new Browser();
    const q = `court autocomplete ${Date.now()}`;
    const res = await b.get(`/api/search/autocomplete?q=${encodeURIComponent(q)}`, auth);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { estimated_total: number };
    const rows = await rowsOf(q);
    expect(rows).toEqual([{ user_id: dave.id, mode: "autocomplete", hit_count: answer.estimated_total }]);
    const history = (await (await b.get("/api/search/analytics/history", auth)).json()) as { results: { query: string; mode: string }[] };
    expect(history.results).toEqual([expect.objectContaining({ query: q, mode: "autocomplete" })]);
  });

  it("an anonymous autocomplete records a row with a null user_id; an empty query records none", async () => {
    const b = new Browser();
    const q = `appeal anon ${Date.now()}`;
    expect((await b.get(`/api/search/autocomplete?q=${encodeURIComponent(q)}`)).status).toBe(200);
    expect(await rowsOf(q)).toEqual([{ user_id: null, mode: "autocomplete", hit_count: expect.any(Number) }]);
    // An empty query is the box being focused, not a search. Count autocomplete rows around one, with a marker
    // request after it so the queue has certainly been flushed past the empty one.
    const before = Number((await pool.query("select count(*) from public.search_analytics where mode = 'autocomplete' and query = ''")).rows[0].count);
    expect((await b.get("/api/search/autocomplete?q=")).status).toBe(200);
    const marker = `marker ${Date.now()}`;
    expect((await b.get(`/api/search/autocomplete?q=${encodeURIComponent(marker)}`)).status).toBe(200);
    expect(await rowsOf(marker)).toHaveLength(1);
    const afterCount = Number((await pool.query("select count(*) from public.search_analytics where mode = 'autocomplete' and query = ''")).rows[0].count);
    expect(afterCount).toBe(before);
  });
});
