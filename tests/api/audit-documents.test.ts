import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/backend/api-keys";
import { adminPool, stackEnv } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { serviceClient } from "../helpers/supabase";
import { rebuildAppIndex } from "../helpers/app-index";

/**
 * The judgment detail record, page sizes of the document list and
 * search routes, and the reference filter object on semantic chunk search, over real HTTP against the app with a
 * LanceDB index built by a real sync of the test database (as tests/api/search-endpoints.test.ts does).
 */
const pool = adminPool();
const dataDir = stackEnv().searchDataDir ?? process.env.SEARCH_DATA_DIR;

let key: { id: string; key: string };
let user: Browser;
/** A seeded judgment with judges, and with outcome and cited_legislation null (true of every seeded row today). */
let doc: { id: string; jurisdiction: string };

beforeAll(async () => {
  if (!dataDir) throw new Error("the test stack has no searchDataDir");
  await rebuildAppIndex(pool, dataDir);
  key = await createApiKey(serviceClient(), { name: `audit documents ${Date.now()}` });
  user = (await signedInBrowser()).browser;
  const { rows } = await pool.query<{ id: string; jurisdiction: string }>(
    `select id, jurisdiction from public.judgments
      where outcome is null and cited_legislation is null and jsonb_array_length(judges) > 0 and metadata ? 'language'
      order by id limit 1`,
  );
  if (!rows[0]) throw new Error("no seeded judgment with judges and a null outcome");
  doc = rows[0];
}, 180_000);

afterAll(async () => {
  await revokeApiKey(serviceClient(), key.id).catch(() => undefined);
  await pool.end();
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

/** The error code in the service envelope ({detail: {code}}) or the reference one ({error, details: {code}}) under /api/v1. */
function errorCode(body: Record<string, unknown>): unknown {
  const detail = (body.detail ?? body.details) as Record<string, unknown> | undefined;
  return detail?.code;
}

const DETAIL_KEYS = [
  "id", "case_number", "title", "summary", "court_name", "court_level", "jurisdiction", "case_type", "decision_type",
  "outcome", "decision_date", "publication_date", "judges", "keywords", "legal_topics", "cited_legislation",
  "source_url", "metadata", "created_at", "updated_at",
];

describe("the judgment detail record (R-RES-018, R-END-126)", () => {
  it("GET /api/documents/{id}/metadata lists every spec key, null allowed, still without the full text", async () => {
    const meta = await json(await new Browser().get(`/api/documents/${doc.id}/metadata`));
    for (const k of DETAIL_KEYS) expect(meta, k).toHaveProperty(k);
    expect(meta.outcome).toBeNull();
    expect(meta.cited_legislation).toBeNull();
    expect(meta).not.toHaveProperty("full_text");
    expect(typeof meta.full_text_length).toBe("number");
  });

  it("GET /api/v1/documents/{id} (API key) returns exactly the full reference record", async () => {
    const res = await new Browser().get(`/api/v1/documents/${doc.id}`, { "x-api-key": key.key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual([...DETAIL_KEYS, "full_text"].sort());
    const { rows } = await pool.query<{ full_text: string; language: string; page_count: number }>(
      "select full_text, metadata->>'language' as language, (metadata->>'page_count')::int as page_count from public.judgments where id = $1",
      [doc.id],
    );
    expect(body.id).toBe(doc.id);
    expect(body.full_text).toBe(rows[0].full_text);
    expect(body.metadata).toEqual({ language: rows[0].language, page_count: rows[0].page_count });
    expect(body.outcome).toBeNull();
    expect(body.cited_legislation).toBeNull();
    const judges = body.judges as { name: string; role: string | null }[];
    expect(judges.length).toBeGreaterThan(0);
    for (const j of judges) expect(Object.keys(j).sort()).toEqual(["name", "role"]);
  });

  it("GET /api/v1/documents/{id}: 401 without a key, 400 for a malformed id, 404 for an unknown one", async () => {
    const h = { "x-api-key": key.key };
    const noKey = await new Browser().get(`/api/v1/documents/${doc.id}`);
    expect(noKey.status).toBe(401);
    expect(errorCode(await json(noKey))).toBe("API_KEY_REQUIRED");
    const bad = await new Browser().get("/api/v1/documents/not-a-uuid", h);
    expect(bad.status).toBe(400);
    expect(errorCode(await json(bad))).toBe("INVALID_ID");
    const unknown = await new Browser().get("/api/v1/documents/00000000-0000-4000-8000-000000000999", h);
    expect(unknown.status).toBe(404);
    expect(errorCode(await json(unknown))).toBe("DOCUMENT_NOT_FOUND");
  });
});

describe("page sizes: default 20, max 100, offset 0 (R-LIM-028, R-END-151)", () => {
  it("GET /api/documents/{id}/similar", async () => {
    const b = new Browser();
    const first = await json(await b.get(`/api/documents/${doc.id}/similar`));
    expect((first.results as unknown[]).length).toBe(20);
    const hundred = await json(await b.get(`/api/documents/${doc.id}/similar?limit=100`));
    expect((hundred.results as unknown[]).length).toBe(100);
    expect((await b.get(`/api/documents/${doc.id}/similar?limit=101`)).status).toBe(422);
    const page = await json(await b.get(`/api/documents/${doc.id}/similar?limit=3&offset=2`));
    const ids = (r: Record<string, unknown>) => (r.results as { id: string }[]).map((x) => x.id);
    expect(ids(page)).toEqual(ids(first).slice(2, 5));
  });

  it("POST /api/documents/search (semantic chunk search)", async () => {
    const query = { query: "the court considered the appeal against the sentence" };
    const first = await json(await user.post("/api/documents/search", query));
    const results = first.results as { id: string; position: number }[];
    expect(results.length).toBe(20);
    expect(first.total).toBe(20);
    const hundred = await json(await user.post("/api/documents/search", { ...query, limit: 100 }));
    expect((hundred.results as unknown[]).length).toBe(100);
    expect((await user.post("/api/documents/search", { ...query, limit: 101 })).status).toBe(422);
    const page = await json(await user.post("/api/documents/search", { ...query, limit: 3, offset: 2 }));
    const key = (r: { id: string; position: number }) => `${r.id}#${r.position}`;
    expect((page.results as typeof results).map(key)).toEqual(results.slice(2, 5).map(key));
  });
});

describe("semantic chunk search takes the reference `filters` object (R-END-135)", () => {
  const query = "the court considered the appeal against the sentence";
  const judgmentsOf = async (ids: string[]) =>
    (await pool.query<{ id: string; jurisdiction: string; decision_date: string | null }>(
      "select id, jurisdiction, to_char(decision_date, 'YYYY-MM-DD') as decision_date from public.judgments where id = any($1::uuid[])",
      [ids],
    )).rows;

  it("filters {jurisdiction, decision_date_from, decision_date_to} narrows passages like the same expression", async () => {
    const byObject = await json(
      await user.post("/api/documents/search", { query, limit: 50, filters: { jurisdiction: "UK", decision_date_from: "2015-01-01", decision_date_to: "2020-12-31" } }),
    );
    const ids = (byObject.results as { id: string }[]).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const j of await judgmentsOf(ids)) {
      expect(j.jurisdiction).toBe("UK");
      expect(j.decision_date! >= "2015-01-01" && j.decision_date! <= "2020-12-31").toBe(true);
    }
    const lo = Date.UTC(2015, 0, 1) / 1000;
    const hi = Date.UTC(2020, 11, 31) / 1000 + 86_399;
    const byExpr = await json(
      await user.post("/api/documents/search", { query, limit: 50, filter: `jurisdiction IN [UK] AND decision_date_ts >= ${lo} AND decision_date_ts <= ${hi}` }),
    );
    expect(byObject.results).toEqual(byExpr.results);
  });

  it("both `filter` and `filters` → 400 CONFLICTING_FILTER; a key passages cannot filter on → 422 FILTER_INVALID naming it", async () => {
    const both = await user.post("/api/documents/search", { query, filter: "jurisdiction = UK", filters: { jurisdiction: "UK" } });
    expect(both.status).toBe(400);
    expect(errorCode(await json(both))).toBe("CONFLICTING_FILTER");
    for (const [filters, field] of [
      [{ court_level: "appeal" }, "court_level"],
      [{ keywords: ["theft"] }, "keywords"],
      [{ jurisdiction: "DE" }, "jurisdiction"],
      [{ decision_date_from: "2020-02-30" }, "decision_date_from"],
      [{ colour: "red" }, "colour"],
    ] as const) {
      const res = await user.post("/api/documents/search", { query, filters });
      expect(res.status, field).toBe(422);
      expect((await json(res)).detail).toMatchObject({ code: "FILTER_INVALID", field });
    }
  });
});
