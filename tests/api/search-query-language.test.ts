import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { F } from "../search-conformance/fixture";
import { deleteFixtureRows, insertFixtureRows, rebuildAppIndex } from "../helpers/app-index";

/**
 * The query language (docs/search.md "Query language") over real HTTP, on GET /api/search/documents and
 * POST /api/v1/documents/search: highlights of query terms only, phrases, exclusions, OR, fields, sort, and a query
 * that cannot be parsed answering 200 with query_warnings. Scoped to the fixture rows (decision_type "fixture").
 */
const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;
let pool: pg.Pool;
let user: Browser;
let apiKey: string;

beforeAll(async () => {
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the search API tests");
  pool = adminPool();
  await insertFixtureRows(pool);
  await rebuildAppIndex(pool, dataDir);
  // Signed in: a guest's five searches a day would not cover this file.
  user = (await signedInBrowser()).browser;
  const key = await user.post("/api/settings/api-keys", { name: "query-language" });
  expect(key.status).toBe(201);
  apiKey = ((await key.json()) as { key: string }).key;
}, 180_000);

afterAll(async () => {
  if (pool) await deleteFixtureRows(pool);
  await pool?.end();
});

type Hit = Record<string, unknown> & { id: string; _formatted: Record<string, unknown> };
type Body = { hits: Hit[]; estimated_total: number; query: string; query_warnings?: string[] };

const FX = "decision_type = fixture";
async function search(q: string, extra = ""): Promise<{ status: number; body: Body }> {
  const res = await user.get(`/api/search/documents?q=${encodeURIComponent(q)}&filter=${encodeURIComponent(FX)}&limit=100${extra}`);
  return { status: res.status, body: (await res.json()) as Body };
}
const ids = (b: Body) => b.hits.map((h) => h.id);

describe("GET /api/search/documents query language", () => {
  it("highlights the query's terms, never stop-words or one-letter words", async () => {
    const { body } = await search("kradzież z włamaniem");
    const hit = body.hits.find((h) => h.id === F.kradziez);
    expect(hit?._formatted.title).toBe("Wyrok Sądu Apelacyjnego w Poznaniu: <mark>kradzież</mark> z <mark>włamaniem</mark>");
    const stop = await search("with a");
    for (const h of stop.body.hits) expect(JSON.stringify(h._formatted)).not.toContain("<mark>");
  });

  it("shows a semantic hit's matching passage with the query's words marked, never stop-words", async () => {
    const res = await user.get(`/api/search/documents?q=${encodeURIComponent("a serrated blade pierced the ventricle")}&semantic_ratio=1&filter=${encodeURIComponent(FX)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    const passages = body.hits.map((h) => h._formatted.passage).filter((p): p is string => typeof p === "string");
    expect(passages.length).toBeGreaterThan(0);
    const marked = passages.flatMap((p) => [...p.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1].toLowerCase()));
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) expect(["serrated", "blade", "pierced", "ventricle"]).toContain(m);
  });

  it("matches a phrase on word positions, excludes -word and -\"phrase\", and ORs two words", async () => {
    expect(ids((await search('"armed robbery"')).body).sort()).toEqual([F.khan, F.patel].sort());
    expect(ids((await search('"robbery armed"')).body)).toEqual([]);
    expect(ids((await search("armed robbery -jewellery")).body)).toEqual([F.khan]);
    expect(ids((await search('armed robbery -"post office"')).body)).toEqual([F.patel]);
    expect(ids((await search("burglary OR manslaughter ")).body).sort()).toEqual([F.brown, F.jones].sort());
  });

  it("ORs phrases, and a phrase with a word, each side whole and marked", async () => {
    expect(ids((await search('"domestic burglary" OR "pub fight"')).body).sort()).toEqual([F.brown, F.jones].sort());
    // A phrase holds in order: the reversed one matches nothing, so only the other side's judgment is left.
    expect(ids((await search('"burglary domestic" OR "pub fight"')).body)).toEqual([F.jones]);
    const mixed = (await search('"post office" OR manslaughter ')).body;
    expect(ids(mixed).sort()).toEqual([F.jones, F.khan].sort());
    expect(mixed.hits.find((h) => h.id === F.khan)?._formatted.title).toBe("R v Khan: armed robbery of a <mark>post</mark> <mark>office</mark>");
    expect(mixed.hits.find((h) => h.id === F.jones)?._formatted.title).toBe("R v Jones: <mark>manslaughter</mark> after a pub fight");
  });

  it("reads court:, year: and jurisdiction: fields", async () => {
    expect(ids((await search("court:Poznaniu")).body)).toEqual([F.kradziez]);
    const y = (await search("year:2010")).body;
    expect(y.hits.length).toBeGreaterThan(0);
    for (const h of y.hits) expect(String(h.decision_date)).toMatch(/^2010-/);
    const pl = (await search("jurisdiction:pl")).body;
    expect(pl.estimated_total).toBe(7);
    for (const h of pl.hits) expect(h.jurisdiction).toBe("PL");
  });

  it("degrades an unparsable query to plain words with query_warnings, never a 500", async () => {
    const r = await search('armed "robbery');
    expect(r.status).toBe(200);
    expect(r.body.query).toBe('armed "robbery');
    expect(r.body.query_warnings?.join(" ")).toMatch(/Unclosed quote/);
    expect(ids(r.body)).toEqual(expect.arrayContaining([F.khan, F.patel]));
    const dangling = await search("murder -");
    expect(dangling.status).toBe(200);
    expect(dangling.body.query_warnings?.length).toBe(1);
    expect((await search("armed robbery")).body.query_warnings).toBeUndefined();
  });

  it("sorts by relevance, newest, oldest, cited_by (most cited first) and attr:dir; an unknown sort is refused", async () => {
    const dates = (b: Body) => b.hits.map((h) => String(h.decision_date));
    const newest = (await search("", "&sort=newest")).body;
    expect(dates(newest)).toEqual([...dates(newest)].sort().reverse());
    const oldest = (await search("", "&sort=oldest")).body;
    expect(dates(oldest)).toEqual([...dates(oldest)].sort());
    expect(dates((await search("", "&sort=decision_date:asc")).body)).toEqual(dates(oldest));
    expect((await search("armed robbery", "&sort=relevance")).status).toBe(200);
    const cited = (await search("", "&sort=cited_by")).body;
    const counts = cited.hits.map((h) => Number(h.cited_by_count ?? 0));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const bad = await user.get(`/api/search/documents?q=x&sort=full_text:asc`);
    expect(bad.status).toBe(400);
    const err = (await bad.json()) as { detail?: { code?: string } };
    expect(err.detail?.code).toBe("INVALID_SORT");
  });
});

describe("POST /api/v1/documents/search query language", () => {
  it("reads the same syntax, sorts, and reports query_warnings in search_metadata", async () => {
    const api = new Browser();
    const post = async (body: Record<string, unknown>) => {
      const res = await api.post("/api/v1/documents/search", { search_type: "text", limit: 100, ...body }, { "x-api-key": apiKey });
      return { status: res.status, body: (await res.json()) as { results: Array<Record<string, unknown>>; search_metadata: { query_warnings?: string[] } } };
    };
    const phrase = await post({ query: '"armed robbery" -jewellery' });
    expect(phrase.status).toBe(200);
    expect(phrase.body.results.map((r) => r.id)).toContain(F.khan);
    expect(phrase.body.results.map((r) => r.id)).not.toContain(F.patel);
    const or = await post({ query: '"domestic burglary" OR "pub fight"' });
    expect(or.status).toBe(200);
    expect(or.body.results.map((r) => r.id).filter((id) => id === F.brown || id === F.jones).sort()).toEqual([F.brown, F.jones].sort());
    expect(or.body.results.map((r) => r.id)).not.toContain(F.khan);
    const warn = await post({ query: 'armed "robbery' });
    expect(warn.status).toBe(200);
    expect(warn.body.search_metadata.query_warnings?.join(" ")).toMatch(/Unclosed quote/);
    const sorted = await post({ query: "jurisdiction:pl wyrok", sort: "oldest" });
    expect(sorted.status).toBe(200);
    const d = sorted.body.results.map((r) => String(r.decision_date));
    expect(d.length).toBeGreaterThan(1);
    expect(d).toEqual([...d].sort());
  });
});
