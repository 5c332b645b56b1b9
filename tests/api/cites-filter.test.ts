/**
 * The `cites` filter key of the structured filter (docs/structured-search.md, docs/citations.md) over real HTTP on
 * the test stack's slice (seed 7, rows 0-599), whose citation graph the seed built: on /search/extractions' routes
 * (filter, aggregate, export) `cites: ["PL/kk/279/§1"]` selects exactly the planted judgments applying art. 279 § 1
 * k.k. (not the two acquittals, none by case-number digits) among the completed extractions; with a sentence filter it
 * narrows to those meeting both; the article takes the judgments applying its paragraphs; a malformed provision id is
 * 422 FILTER_INVALID naming `cites`; the search route's `filters=` and /api/v1's reference filters agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateJudgment } from "@/supabase/seed/generate";
import { ART_279_ACQUITTAL_INDEXES, ART_279_INDEXES, PLANTED_STATUTE_SEED } from "@/supabase/seed/planted-statutes";
import { rebuildAppIndex } from "../helpers/app-index";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";

const pool = adminPool();
const dataDir = stackEnv().searchDataDir ?? process.env.SEARCH_DATA_DIR;
const idOf = (i: number) => generateJudgment(PLANTED_STATUTE_SEED, i).id;
const APPLYING = ART_279_INDEXES.map(idOf);
const ACQUITTALS = ART_279_ACQUITTAL_INDEXES.map(idOf);

type Body = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Body;
const detail = (body: Body) => body.detail as Body;

interface Planted {
  id: string;
  completed: boolean;
  custody: number | null;
}
let planted: Planted[] = [];
let browser: Browser;

beforeAll(async () => {
  if (!dataDir) throw new Error("the test stack has no searchDataDir");
  await rebuildAppIndex(pool, dataDir);
  ({ browser } = await signedInBrowser());
  const { rows } = await pool.query<{ id: string; completed: boolean; custody: number | null }>(
    `select id::text, base_extraction_status = 'completed' as completed, base_sentence_custody_months as custody
       from public.judgments where id = any($1::uuid[])`,
    [APPLYING],
  );
  planted = rows;
}, 180_000);

afterAll(() => pool.end());

/** Every id the filter route answers for a filter (paged through). */
async function filterIds(filters: Body): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await browser.post("/api/extractions/base-schema/filter", { filters, limit: 100, offset });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    const body = await json(res);
    out.push(...(body.results as Body[]).map((r) => String(r.id)));
    if (!body.has_more) break;
  }
  return out.sort();
}

describe("cites on /search/extractions", () => {
  it("the planted set is there: six judgments apply art. 279 § 1 k.k., most with a completed extraction", () => {
    expect(planted.map((p) => p.id).sort()).toEqual([...APPLYING].sort());
    expect(planted.filter((p) => p.completed).length).toBeGreaterThanOrEqual(3);
  });

  it("cites: PL/kk/279/§1 selects exactly the completed planted judgments applying it, never the acquittals", async () => {
    const ids = await filterIds({ cites: ["PL/kk/279/§1"] });
    expect(ids).toEqual(planted.filter((p) => p.completed).map((p) => p.id).sort());
    for (const a of ACQUITTALS) expect(ids).not.toContain(a);
    const { rows } = await pool.query<{ case_number: string | null }>("select case_number from public.judgments where id = any($1::uuid[])", [ids]);
    for (const r of rows) expect(r.case_number ?? "").not.toMatch(/\b279\//);
  });

  it("an article includes its paragraphs; the list is any-of; a provision nobody applies matches nothing", async () => {
    const paragraph = await filterIds({ cites: ["PL/kk/279/§1"] });
    const article = await filterIds({ cites: ["PL/kk/279"] });
    expect(article).toEqual(expect.arrayContaining(paragraph));
    const either = await filterIds({ cites: ["PL/kk/279/§1", "PL/kk/9999"] });
    expect(either).toEqual(paragraph);
    expect(await filterIds({ cites: ["PL/kk/9999"] })).toEqual([]);
    expect(await filterIds({ cites: [] })).toEqual([]);
  });

  it("with a sentence filter it narrows to the judgments meeting both", async () => {
    const withCustody = planted.filter((p) => p.completed && p.custody !== null);
    // A bound that keeps some planted judgments and, where their sentences differ, drops others.
    const custodies = withCustody.map((p) => p.custody!).sort((a, b) => a - b);
    const min = custodies.length ? custodies[Math.floor(custodies.length / 2)] : 0;
    const expected = planted.filter((p) => p.completed && p.custody !== null && p.custody >= min).map((p) => p.id).sort();
    const ids = await filterIds({ cites: ["PL/kk/279/§1"], sentence_custody_months: { min } });
    expect(ids).toEqual(expected);
    // The same sentence filter alone selects more than the cited subset (so cites did narrow it).
    const alone = await filterIds({ sentence_custody_months: { min } });
    expect(alone.length).toBeGreaterThan(ids.length);
    expect(alone).toEqual(expect.arrayContaining(ids));
    // And with jurisdiction UK nothing (art. 279 k.k. is Polish law).
    expect(await filterIds({ cites: ["PL/kk/279/§1"], jurisdiction: ["UK"] })).toEqual([]);
  });

  it("the aggregate counts the same cohort", async () => {
    const res = await browser.post("/api/extractions/base-schema/aggregate", { filters: { cites: ["PL/kk/279/§1"] }, fields: ["decision_date"] });
    expect(res.status).toBe(200);
    expect((await json(res)).total).toBe(planted.filter((p) => p.completed).length);
  });

  it.each([["PL/kk/279/1"], ["art. 279 § 1 k.k."], ["PL/KK/279"], ["not-a-judgment-id"], ["UK/ukpga/1861/100/18"]])(
    "a malformed provision id %s is 422 FILTER_INVALID naming cites, on the filter, aggregate, facets and search routes",
    async (bad) => {
      const filter = await browser.post("/api/extractions/base-schema/filter", { filters: { cites: [bad] } });
      expect(filter.status).toBe(422);
      expect(detail(await json(filter))).toMatchObject({ code: "FILTER_INVALID", field: "cites" });
      const aggregate = await browser.post("/api/extractions/base-schema/aggregate", { filters: { cites: [bad] } });
      expect(detail(await json(aggregate))).toMatchObject({ code: "FILTER_INVALID", field: "cites" });
      const search = await browser.get(`/api/search/documents?q=&filters=${encodeURIComponent(JSON.stringify({ cites: [bad] }))}`);
      expect(search.status).toBe(422);
      expect(detail(await json(search))).toMatchObject({ code: "FILTER_INVALID", field: "cites" });
    },
  );

  it("the SQL function refuses what the parser refuses (SF001 naming cites), and is no facet field", async () => {
    await expect(pool.query("select * from public.list_extracted_filter_matches($1::jsonb, null)", [JSON.stringify({ cites: ["PL/kk/279/1"] })])).rejects.toMatchObject({
      code: "SF001",
      detail: "cites",
    });
    const { rows } = await pool.query<{ n: string }>("select count(*) as n from public.list_extracted_filter_matches($1::jsonb, null)", [JSON.stringify({ cites: ["PL/kk/279/§1"] })]);
    expect(Number(rows[0].n)).toBe(planted.filter((p) => p.completed).length);
    const facets = await browser.get("/api/extractions/base-schema/facets?field=cites");
    expect(facets.status).toBe(422);
  });
});

describe("cites on the search route and /api/v1", () => {
  it("GET /api/search/documents?filters= selects every judgment applying it (completed or not)", async () => {
    const res = await browser.get(`/api/search/documents?q=&limit=50&filters=${encodeURIComponent(JSON.stringify({ cites: ["PL/kk/279/§1"] }))}`);
    expect(res.status).toBe(200);
    const ids = ((await json(res)).hits as Body[]).map((h) => String(h.id)).sort();
    expect(ids).toEqual([...APPLYING].sort());
  });

  it("POST /api/v1/documents/search takes filters.cites; a malformed id is 422; facets refuse it", async () => {
    const created = await browser.post("/api/settings/api-keys", { name: "cites filter" });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { key: string }).key;
    const api = new Browser();
    const headers = { "x-api-key": key };
    const res = await api.request("POST", "/api/v1/documents/search", { query: "wyrok", search_type: "text", limit: 50, filters: { cites: ["PL/kk/279/§1"] } }, headers);
    expect(res.status).toBe(200);
    const ids = ((await json(res)).results as Body[]).map((r) => String(r.id ?? (r.document as Body | undefined)?.id));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(APPLYING).toContain(id);
    const bad = await api.request("POST", "/api/v1/documents/search", { query: "wyrok", filters: { cites: ["279 § 1 kk"] } }, headers);
    expect(bad.status).toBe(422);
    const facets = await api.request("POST", "/api/v1/search/facets", { filters: { cites: ["PL/kk/279/§1"] } }, headers);
    expect(facets.status).toBe(422);
  });
});
