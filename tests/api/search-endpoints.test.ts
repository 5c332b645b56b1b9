import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { createClient } from "@supabase/supabase-js";
import { Browser, TEST_PASSWORD, uniqueEmail } from "../helpers/http";
import { F, fixtureId } from "../search-conformance/fixture";
import { noRealtime } from "../helpers/supabase";
import { parseSearchState, searchFilterExpression } from "@/lib/client/search-url-state";
import { deleteFixtureRows, insertFixtureRows, rebuildAppIndex } from "../helpers/app-index";

/**
 * The search and document endpoints over real HTTP against the app, with the LanceDB index built by a real sync from
 * the test database. The app and this file must share the index folder: the stack's searchDataDir (or
 * SEARCH_DATA_DIR), never the developer's .data/search.
 */
const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;

let pool: pg.Pool;

async function signedInBrowser(): Promise<{ browser: Browser }> {
  const env = stackEnv();
  const admin = createClient(env.supabaseUrl as string, env.serviceRoleKey as string, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
  });
  const email = uniqueEmail("search");
  const { error } = await admin.auth.admin.createUser({ email, password: TEST_PASSWORD, email_confirm: true });
  if (error) throw new Error(`createUser failed: ${error.message}`);
  const browser = new Browser();
  const res = await browser.post("/api/auth/sign-in", { email, password: TEST_PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
  return { browser };
}

beforeAll(async () => {
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the search API tests");
  pool = adminPool();
  // The fixture rows carry decision_type "fixture"; every assertion is scoped to them (FX) so other rows in the
  // shared test database cannot change the known answers.
  await insertFixtureRows(pool);
  // Trial courts for the Court box (extracted values; the fixture rows carry none).
  await pool.query("update public.judgments set base_sent_court_name = 'Crown Court at Leeds' where id = $1", [F.brown]);
  await pool.query("update public.judgments set base_conv_court_names = 'Crown Court at Leeds' where id = $1", [F.gray]);
  await rebuildAppIndex(pool, dataDir);
}, 120_000);

afterAll(async () => {
  if (pool) await deleteFixtureRows(pool);
  await pool?.end();
});

const FX = "decision_type = fixture";
const fx = (expr?: string) => encodeURIComponent(expr ? `${FX} AND (${expr})` : FX);

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

type Hit = Record<string, unknown> & { id: string; _formatted: Record<string, unknown> };

describe("GET /api/search/documents", () => {
  it("finds judgments with highlights, totals and guest headers", async () => {
    const res = await new Browser().get(`/api/search/documents?q=armed%20robbery&filter=${fx()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-guest-search-limit")).toBe("5");
    const body = await json(res);
    const hits = body.hits as Hit[];
    expect(hits.slice(0, 2).map((h) => h.id).sort()).toEqual([F.patel, F.khan].sort());
    expect(String(hits[0]._formatted.title)).toContain("<mark>");
    expect(body.estimated_total).toBe(2);
    expect(typeof body.processing_time_ms).toBe("number");
    for (const h of hits) expect(h).not.toHaveProperty("full_text");
  });

  it("applies the filter expression and the structured filter object", async () => {
    const b = new Browser();
    const byExpr = await json(await b.get(`/api/search/documents?filter=${fx("jurisdiction = PL")}&limit=100`));
    expect(byExpr.estimated_total).toBe(7);
    const filters = encodeURIComponent(JSON.stringify({ decision_date: { from: "2010-01-01", to: "2014-12-31" } }));
    const byObject = await json(await b.get(`/api/search/documents?filters=${filters}&filter=${fx()}&limit=100`));
    expect((byObject.hits as Hit[]).map((h) => h.id).sort()).toEqual(
      [F.brown, F.gray, F.cole, F.kradziez, F.pobicie].sort(),
    );
  });

  it("answers 422 FILTER_INVALID naming the position or the attribute, 422 for limit > 100, and charges nothing", async () => {
    const b = new Browser();
    // One filter error code (422 FILTER_INVALID); these were 400 INVALID_FILTER, the attribute now in `field`.
    const syntax = await b.get(`/api/search/documents?filter=${encodeURIComponent("jurisdiction = ")}`);
    expect(syntax.status).toBe(422);
    expect((await json(syntax)).detail).toMatchObject({ code: "FILTER_INVALID", position: 15 });
    const unknown = await b.get(`/api/search/documents?filter=${encodeURIComponent("full_text = x")}`);
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).detail).toMatchObject({ code: "FILTER_INVALID", field: "full_text" });
    expect((await b.get("/api/search/documents?q=x&limit=101")).status).toBe(422);
    const ok = await b.get("/api/search/documents?q=robbery");
    expect(ok.headers.get("x-guest-searches-remaining")).toBe("4");
  });

  it("forces semantic_ratio to 0 for guests and honours it for signed-in users", async () => {
    const guest = await json(await new Browser().get("/api/search/documents?q=knife&semantic_ratio=1"));
    expect(guest.semantic_ratio).toBe(0);
    const { browser } = await signedInBrowser();
    const res = await browser.get(`/api/search/documents?q=murder%20stabbing%20kitchen%20knife&semantic_ratio=1&filter=${fx()}`);
    expect(res.headers.get("x-guest-search-limit")).toBeNull();
    const user = await json(res);
    expect(user.semantic_ratio).toBe(1);
    expect((user.hits as Hit[])[0].id).toBe(F.smith);
  });

  it("sorts and returns facets", async () => {
    const body = await json(
      await new Browser().get(`/api/search/documents?sort=decision_date:asc&facets=jurisdiction&limit=100&filter=${fx()}`),
    );
    const dates = (body.hits as Hit[]).map((h) => String(h.decision_date));
    expect(dates).toEqual(dates.slice().sort());
    expect(body.facet_distribution).toEqual({ jurisdiction: { PL: 7, UK: 11 } });
    expect((await new Browser().get("/api/search/documents?sort=title:asc")).status).toBe(400);
  });
});

describe("GET /api/search/autocomplete and /suggest", () => {
  it("autocompletes with the fixed defaults and topic hits; filter and filters (D-01)", async () => {
    const b = new Browser();
    const body = await json(await b.get(`/api/search/autocomplete?q=zab%C3%B3j&filter=${fx()}`));
    expect((body.hits as Hit[])[0].id).toBe(F.zabojstwo);
    expect((body.topic_hits as Array<{ topic: string }>).map((t) => t.topic)).toContain("zabójstwo");
    const f = fx("jurisdiction = UK");
    const a = await json(await b.get(`/api/search/autocomplete?q=robb&filter=${f}`));
    const alias = await json(await b.get(`/api/search/autocomplete?q=robb&filters=${f}`));
    expect((a.hits as Hit[]).map((h) => h.id)).toEqual((alias.hits as Hit[]).map((h) => h.id));
    const both = await b.get(`/api/search/autocomplete?q=robb&filter=${f}&filters=${fx("jurisdiction = PL")}`);
    expect(both.status).toBe(400);
  });

  it("suggests phrases mined from the corpus", async () => {
    const body = await json(await new Browser().get("/api/search/suggest?q=armed"));
    expect((body.suggestions as Array<{ text: string }>).map((s) => s.text)).toContain("armed robbery");
  });
});

describe("filters on GET /api/search/documents (one pipeline; spec audit defects 2 and 5)", () => {
  it("the search page's Court box filters by trial court (sentencing court or court of conviction), any case", async () => {
    const state = parseSearchState(new URLSearchParams("court=crown%20court%20at%20LEEDS"));
    const res = await new Browser().get(`/api/search/documents?filter=${fx(searchFilterExpression(state))}&limit=100`);
    expect(res.status).toBe(200);
    expect(((await json(res)).hits as Hit[]).map((h) => h.id).sort()).toEqual([F.brown, F.gray].sort());
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["an enum value outside its set", { offender_gender: ["male"] }, "offender_gender"],
    ["a jurisdiction outside PL/UK", { jurisdiction: ["DE"] }, "jurisdiction"],
    ["an impossible date", { decision_date: "2010-02-30" }, "decision_date"],
    ["an impossible date bound", { decision_date: { from: "2010-01-01", to: "2010-02-30" } }, "decision_date"],
    ["a null value (was silently skipped)", { did_offender_confess: null }, "did_offender_confess"],
    ["an unknown key", { nope: ["x"] }, "nope"],
  ];
  it("a filter object invalid on the structured routes is the same 422 FILTER_INVALID here, and charges nothing", async () => {
    const guest = new Browser();
    const { browser: user } = await signedInBrowser();
    for (const [label, filters, field] of bad) {
      // Before one pipeline the first three answered 200 with 0 hits on this route (spec audit defect 5).
      const res = await guest.get(`/api/search/documents?filters=${encodeURIComponent(JSON.stringify(filters))}&filter=${fx()}`);
      expect([res.status, (await json(res)).detail], label).toEqual([422, expect.objectContaining({ code: "FILTER_INVALID", field })]);
      const structured = await user.post("/api/extractions/base-schema/filter", { filters });
      expect([structured.status, (await json(structured)).detail], label).toEqual([
        422,
        expect.objectContaining({ code: "FILTER_INVALID", field }),
      ]);
    }
    const ok = await guest.get(`/api/search/documents?filters=${encodeURIComponent(JSON.stringify({ jurisdiction: ["UK"] }))}&filter=${fx()}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-guest-searches-remaining")).toBe("4");
  });

  it("keys the index cannot filter on are 422 naming them; collection_ids stays 400", async () => {
    const b = new Browser();
    for (const [filters, field] of [
      [{ court_name: ["Court of Appeal (Criminal Division)"] }, "court_name"],
      [{ case_name: "smith" }, "case_name"],
    ] as const) {
      const res = await b.get(`/api/search/documents?filters=${encodeURIComponent(JSON.stringify(filters))}`);
      expect([res.status, (await json(res)).detail]).toEqual([422, expect.objectContaining({ code: "FILTER_INVALID", field })]);
    }
    const ids = await b.get(`/api/search/documents?filters=${encodeURIComponent(JSON.stringify({ collection_ids: [] }))}`);
    expect([ids.status, ((await json(ids)).detail as { code: string }).code]).toEqual([400, "COLLECTION_IDS_NOT_ALLOWED"]);
  });

  it("caps list values per list and per request, over filter and filters together (security review H1)", async () => {
    const b = new Browser();
    const vals = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    const perList = await b.get(`/api/search/documents?filters=${encodeURIComponent(JSON.stringify({ keywords: vals(101, "k") }))}`);
    const perListBody = (await json(perList)).detail as { code: string; field: string; message: string };
    expect([perList.status, perListBody.code, perListBody.field]).toEqual([422, "FILTER_INVALID", "keywords"]);
    expect(perListBody.message).toContain("FILTER_MAX_LIST_VALUES");
    const exprList = await b.get(`/api/search/documents?filter=${encodeURIComponent(`base_keywords IN [${vals(101, "k").join(",")}]`)}`);
    expect([exprList.status, (await json(exprList)).detail]).toEqual([422, expect.objectContaining({ code: "FILTER_INVALID", field: "base_keywords" })]);
    // 300 in the expression + 201 in the object: each side alone is allowed, together they are one over 500.
    const expr = ["base_keywords", "base_convict_offences", "base_appeal_ground"].map((a) => `${a} IN [${vals(100, "e").join(",")}]`).join(" AND ");
    const obj = { keywords: vals(100, "o"), agg_fact_sent: vals(100, "p"), mit_fact_sent: ["q"] };
    const total = await b.get(`/api/search/documents?filter=${encodeURIComponent(expr)}&filters=${encodeURIComponent(JSON.stringify(obj))}`);
    const totalBody = (await json(total)).detail as { code: string; message: string };
    expect([total.status, totalBody.code]).toEqual([422, "FILTER_INVALID"]);
    expect(totalBody.message).toContain("FILTER_MAX_TOTAL_VALUES");
    const { mit_fact_sent: _dropped, ...allowed } = obj;
    expect((await b.get(`/api/search/documents?filter=${encodeURIComponent(expr)}&filters=${encodeURIComponent(JSON.stringify(allowed))}`)).status).toBe(200);
  });
});

describe("/api/documents", () => {
  it("metadata without full text; html sanitised; similar; 404 and 400", async () => {
    const b = new Browser();
    const meta = await json(await b.get(`/api/documents/${F.oneil}/metadata`));
    expect(meta.title).toBe("R v O'Neil & <Co>: fraud by abuse of position");
    expect(meta).not.toHaveProperty("full_text");
    expect(meta).not.toHaveProperty("base_search_tsv");
    const html = await json(await b.get(`/api/documents/${F.smith}/html`));
    expect(String(html.html)).toMatch(/^<p>/);
    expect(String(html.html)).not.toContain("<script");
    const similar = await json(await b.get(`/api/documents/${F.patel}/similar?limit=3&filter=${fx()}`));
    expect((similar.results as Array<{ id: string }>)[0].id).toBe(F.khan);
    expect((await b.get(`/api/documents/${fixtureId(999)}/metadata`)).status).toBe(404);
    expect((await b.get(`/api/documents/${fixtureId(999)}/similar`)).status).toBe(404);
    expect((await b.get("/api/documents/not-a-uuid/metadata")).status).toBe(400);
    expect((await b.get("/api/documents/not-a-uuid/html")).status).toBe(400);
  });

  it("chunk search and batch need a signed-in user", async () => {
    const guest = new Browser();
    expect((await guest.post("/api/documents/search", { query: "left ventricle" })).status).toBe(401);
    expect((await guest.post("/api/documents/batch", { ids: [F.smith] })).status).toBe(401);
    const { browser } = await signedInBrowser();
    const chunks = await json(
      await browser.post("/api/documents/search", { query: "serrated blade pierced the left ventricle", filter: FX }),
    );
    expect((chunks.results as Array<{ id: string; excerpt: string }>)[0]).toMatchObject({ id: F.smith });
    const batch = await json(await browser.post("/api/documents/batch", { ids: [F.khan, fixtureId(999), F.smith] }));
    expect((batch.documents as Array<{ id: string }>).map((d) => d.id)).toEqual([F.khan, F.smith]);
    expect(batch.missing).toEqual([fixtureId(999)]);
    const tooMany = Array.from({ length: 101 }, (_, i) => fixtureId(i + 1));
    expect((await browser.post("/api/documents/batch", { ids: tooMany })).status).toBe(422);
    expect((await browser.post("/api/documents/batch", { ids: ["nope"] })).status).toBe(400);
  });
});
