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
