/**
 * The citator's provision side over real HTTP against the app, on the test stack's slice (seed 7, rows 0-599) whose
 * graph the seed built: a provision typed in the search box searches the judgments applying it (exactly the planted
 * six, not the two acquittals, none picked by case-number digits); /api/legislation finds provisions by text;
 * /api/legislation/{id} lists the judgments applying one with counts per year and outcome, filters, sort, paging
 * and CSV; cited-by takes the same filters; sort=cited_by orders search by the citator's count; the /api/v1 twins
 * answer an API key. Public like the judgments' reads.
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
const APPLYING = ART_279_INDEXES.map(idOf).sort();
const ACQUITTALS = ART_279_ACQUITTAL_INDEXES.map(idOf);
const ART = encodeURIComponent("PL/kk/279/§1").replace(/%2F/g, "/");

type Body = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Body;
const code = (body: Body) => (body.detail as Body | undefined)?.code ?? (body.details as Body | undefined)?.code;

beforeAll(async () => {
  if (!dataDir) throw new Error("the test stack has no searchDataDir");
  // The index as the database holds it now (other files may have rebuilt it from their own rows meanwhile).
  await rebuildAppIndex(pool, dataDir);
}, 180_000);

afterAll(() => pool.end());

describe("a provision typed in the search box", () => {
  it.each(["art. 279 § 1 k.k.", "279 § 1 kk", "art 279 par. 1 kk"])("%s finds exactly the judgments applying it", async (q) => {
    const body = await json(await new Browser().get(`/api/search/documents?q=${encodeURIComponent(q)}&limit=50`));
    expect(body.provision).toEqual({ id: "PL/kk/279/§1", name: "art. 279 § 1 k.k." });
    const ids = (body.hits as Body[]).map((h) => String(h.id)).sort();
    expect(ids).toEqual(APPLYING);
    for (const a of ACQUITTALS) expect(ids).not.toContain(a);
    // None chosen for "279" in its case number.
    for (const h of body.hits as Body[]) expect(String(h.case_number ?? "")).not.toMatch(/\b279\//);
  });

  it("an article finds the judgments applying any of its paragraphs; plain words still search as words", async () => {
    const article = await json(await new Browser().get(`/api/search/documents?q=${encodeURIComponent("art. 279 k.k.")}&limit=50`));
    expect((article.provision as Body).id).toBe("PL/kk/279");
    expect((article.hits as Body[]).length).toBeGreaterThanOrEqual(APPLYING.length);
    const words = await json(await new Browser().get(`/api/search/documents?q=${encodeURIComponent("kradzież z włamaniem")}`));
    expect(words.provision).toBeUndefined();
  });
});

describe("sort=cited_by", () => {
  it("orders hits by the citator's count, most cited first, on the web API and /api/v1", async () => {
    const body = await json(await new Browser().get("/api/search/documents?q=&sort=cited_by&limit=20"));
    const counts = (body.hits as Body[]).map((h) => Number(h.cited_by_count ?? 0));
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const { rows } = await pool.query<{ n: number }>("select max(cited_by_count)::int as n from public.judgments");
    expect(counts[0]).toBe(rows[0].n);
  });
});

describe("GET /api/legislation?q=", () => {
  it("reads a provision as typed and counts the judgments applying it", async () => {
    const body = await json(await new Browser().get(`/api/legislation?q=${encodeURIComponent("279 § 1 kk")}`));
    expect(body.provision).toBe("PL/kk/279/§1");
    expect((body.results as Body[])[0]).toEqual({ id: "PL/kk/279/§1", name: "art. 279 § 1 k.k.", count: APPLYING.length });
  });

  it("finds provisions by the words of their names, and answers 422 without q", async () => {
    const body = await json(await new Browser().get(`/api/legislation?q=${encodeURIComponent("k.p.k. 438")}`));
    expect(Array.isArray(body.results)).toBe(true);
    const named = await json(await new Browser().get("/api/legislation?q=kodeks%20karny"));
    expect((named.results as Body[]).some((r) => r.id === "PL/kk")).toBe(true);
    const missing = await new Browser().get("/api/legislation");
    expect(missing.status).toBe(422);
  });
});

describe("GET /api/legislation/{id}", () => {
  it("lists the judgments applying the provision with counts per year and outcome, for guests and users alike", async () => {
    const guest = await json(await new Browser().get(`/api/legislation/${ART}?limit=50`));
    expect(guest).toMatchObject({ id: "PL/kk/279/§1", name: "art. 279 § 1 k.k.", parent: "PL/kk/279", total: APPLYING.length });
    expect((guest.items as Body[]).map((r) => String(r.id)).sort()).toEqual(APPLYING);
    const years = guest.by_year as { year: number; count: number }[];
    expect(years.reduce((a, y) => a + y.count, 0)).toBe(APPLYING.length);
    expect((guest.by_outcome as { count: number }[]).reduce((a, o) => a + o.count, 0)).toBe(APPLYING.length);
    for (const it of guest.items as Body[]) expect(Number(it.references)).toBeGreaterThan(0);
    const { browser } = await signedInBrowser();
    expect(await json(await browser.get(`/api/legislation/${ART}?limit=50`))).toEqual(guest);
  });

  it("filters by year range and sorts oldest first; pages keep the total", async () => {
    const all = await json(await new Browser().get(`/api/legislation/${ART}?limit=50&sort=oldest`));
    const dates = (all.items as Body[]).map((r) => String(r.decision_date));
    expect(dates).toEqual([...dates].sort());
    const first = dates[0];
    const from = await json(await new Browser().get(`/api/legislation/${ART}?date_from=${first}&date_to=${first}`));
    expect((from.items as Body[]).every((r) => r.decision_date === first)).toBe(true);
    const page = await json(await new Browser().get(`/api/legislation/${ART}?limit=2&offset=2`));
    expect(page).toMatchObject({ total: APPLYING.length, limit: 2, offset: 2 });
    expect((page.items as Body[]).length).toBe(2);
  });

  it("exports the list as CSV", async () => {
    const res = await new Browser().get(`/api/legislation/${ART}?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await res.text()).trim().split(/\r\n/);
    expect(lines[0]).toBe("id,case_number,title,court_name,decision_date,jurisdiction,outcome,cited_by_count,references");
    expect(lines.slice(1).map((l) => l.split(",")[0]).sort()).toEqual(APPLYING);
  });

  it("422 INVALID_PROVISION for what is no provision id; 200 with nothing for a provision no judgment applies", async () => {
    for (const bad of ["foo", "PL", "279", "00000000-0000-4000-8000-000000000000"]) {
      const res = await new Browser().get(`/api/legislation/${bad}`);
      expect([bad, res.status, code(await json(res))]).toEqual([bad, 422, "INVALID_PROVISION"]);
    }
    const none = await json(await new Browser().get(`/api/legislation/${encodeURIComponent("PL/kk/363/§1").replace(/%2F/g, "/")}`));
    expect(none).toMatchObject({ id: "PL/kk/363/§1", total: 0, items: [] });
  });
});

describe("GET /api/documents/{id}/cited-by with filters", () => {
  it("filters the citing judgments by jurisdiction and sorts them", async () => {
    const { rows } = await pool.query<{ id: string; n: number }>(
      "select id::text, cited_by_count as n from public.judgments where cited_by_count > 1 order by cited_by_count desc, id limit 1",
    );
    expect(rows.length).toBe(1);
    const leading = rows[0];
    const all = await json(await new Browser().get(`/api/documents/${leading.id}/cited-by?limit=100`));
    expect(all.total).toBe(leading.n);
    const jurisdiction = String(((all.items as Body[])[0] as Body).jurisdiction);
    const only = await json(await new Browser().get(`/api/documents/${leading.id}/cited-by?jurisdiction=${jurisdiction}&limit=100`));
    expect((only.items as Body[]).every((r) => r.jurisdiction === jurisdiction)).toBe(true);
    const sorted = await json(await new Browser().get(`/api/documents/${leading.id}/cited-by?sort=cited_by&limit=100`));
    const counts = (sorted.items as Body[]).map((r) => Number(r.cited_by_count));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const bad = await new Browser().get(`/api/documents/${leading.id}/cited-by?sort=random`);
    expect(bad.status).toBe(422);
  });
});

describe("/api/v1 twins", () => {
  it("answer an API key with the web API's bodies, and 401 without one", async () => {
    const { browser } = await signedInBrowser();
    const created = await browser.post("/api/settings/api-keys", { name: "citator" });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { key: string }).key;
    const api = new Browser();
    const web = await json(await new Browser().get(`/api/legislation/${ART}?limit=50`));
    expect(await json(await api.request("GET", `/api/v1/legislation/${ART}?limit=50`, undefined, { "x-api-key": key }))).toEqual(web);
    const lookup = await api.request("GET", `/api/v1/legislation?q=${encodeURIComponent("279 § 1 kk")}`, undefined, { "x-api-key": key });
    expect(((await json(lookup)).results as Body[])[0]).toMatchObject({ id: "PL/kk/279/§1" });
    const refs = await api.request("GET", `/api/v1/documents/${APPLYING[0]}/references`, undefined, { "x-api-key": key });
    expect(((await json(refs)).items as Body[]).some((r) => r.canonical_id === "PL/kk/279/§1")).toBe(true);
    const citedBy = await api.request("GET", `/api/v1/documents/${APPLYING[0]}/cited-by`, undefined, { "x-api-key": key });
    expect(citedBy.status).toBe(200);
    expect((await new Browser().get(`/api/v1/legislation/${ART}`)).status).toBe(401);
  });
});
