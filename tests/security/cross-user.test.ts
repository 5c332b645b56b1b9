import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../helpers/http";
import { bodyFor, makeVictim, ownerSnapshot, sameOrigin, type Victim } from "../helpers/security-fixtures";
import { apiRoutes, effectiveAuth, fillPath, isCatchAll, isDynamic, key, type RouteHandler } from "../helpers/security-routes";
import { adminPool } from "../helpers/stack";

/**
 * Another user's ids on every owner-only route: user B (signed in, by cookie and by bearer) sends
 * user A's collection id to every signed-in route that takes an id in its path — the list derived from app/api, and a
 * test fails when such a route exists that the table below does not cover — and to every route that accepts
 * `collection_ids` inside a filter. Each answers 404 COLLECTION_NOT_FOUND (existence never revealed, D-30) or refuses
 * collection_ids (400), and A's data read back from Postgres is unchanged. B's own list and history never show A's.
 */

const pool = adminPool();
const ROUTES = apiRoutes();
const PLACEHOLDER = { id: "00000000-0000-4000-8000-000000000000" };
/** Signed-in routes with an id in the path: each acts on something its caller must own. */
const OWNER_ONLY = ROUTES.filter((h) => isDynamic(h) && !isCatchAll(h) && effectiveAuth(h, fillPath(h.template, PLACEHOLDER)) === "user");

/** What B gets on each owner-only route with A's id. Adding an owner-only route without a row here fails the suite. */
const EXPECTED: Record<string, { status: number; code: string }> = {
  // Global records (analysis-lines): no owner, so another user's id is simply no such line / judge.
  "GET /api/reasoning-lines/[id]": { status: 404, code: "NOT_FOUND" },
  "GET /api/reasoning-lines/[id]/timeline": { status: 404, code: "NOT_FOUND" },
  "GET /api/reasoning-lines/[id]/related": { status: 404, code: "NOT_FOUND" },
  "GET /api/judge-fingerprint/profile/[name]": { status: 404, code: "NOT_FOUND" },
  "GET /api/collections/[id]": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "PATCH /api/collections/[id]": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "DELETE /api/collections/[id]": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "GET /api/collections/[id]/documents": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "POST /api/collections/[id]/documents": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "DELETE /api/collections/[id]/documents": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "POST /api/collections/[id]/documents/batch": { status: 404, code: "COLLECTION_NOT_FOUND" },
  "GET /api/collections/[id]/export": { status: 404, code: "COLLECTION_NOT_FOUND" },
  // Accounts: saved searches; A's own saved search id is attacked below as well.
  "GET /api/saved-searches/[id]": { status: 404, code: "SAVED_SEARCH_NOT_FOUND" },
  "PATCH /api/saved-searches/[id]": { status: 404, code: "SAVED_SEARCH_NOT_FOUND" },
  "DELETE /api/saved-searches/[id]": { status: 404, code: "SAVED_SEARCH_NOT_FOUND" },
  "POST /api/saved-searches/[id]/run": { status: 404, code: "SAVED_SEARCH_NOT_FOUND" },
  // Topic runs: another user's run and an id that is not a run are the same 404.
  "GET /api/topic-modeling/runs/[id]": { status: 404, code: "TOPIC_RUN_NOT_FOUND" },
  // api-v1 area: revoking a key that is not the caller's (A's id of any kind) is a plain 404 (tests/api/api-v1.test.ts
  // revokes another user's real key).
  "DELETE /api/settings/api-keys/[id]": { status: 404, code: "API_KEY_NOT_FOUND" },
  // Extraction schemas: A's collection id names no schema of B's either; the same 404 as a foreign schema id.
  "GET /api/schemas/[id]": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "PATCH /api/schemas/[id]": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "DELETE /api/schemas/[id]": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "GET /api/schemas/[id]/versions": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "GET /api/schemas/[id]/versions/[n]": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "GET /api/schemas/[id]/versions/compare": { status: 404, code: "SCHEMA_NOT_FOUND" },
  "POST /api/schemas/[id]/versions/[n]/rollback": { status: 404, code: "SCHEMA_NOT_FOUND" },
  // Assistant tools: versions of a judgment (global, readable by every signed-in user); A's
  // collection id names no judgment.
  "GET /api/documents/[id]/versions": { status: 404, code: "DOCUMENT_NOT_FOUND" },
  // Extraction jobs: A's collection id is no job of B's; the same 404 as a foreign job id.
  "GET /api/extractions/[id]": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  "DELETE /api/extractions/[id]": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  "POST /api/extractions/[id]/cancel": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  "POST /api/extractions/[id]/retry": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  "GET /api/extractions/[id]/results": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  "GET /api/extractions/[id]/export": { status: 404, code: "EXTRACTION_JOB_NOT_FOUND" },
  // Chat threads: A's collection id names no thread of B's; the same 404 as a foreign thread (tests/api/chat.test.ts
  // attacks A's real thread).
  "GET /api/chat/threads/[id]": { status: 404, code: "CHAT_THREAD_NOT_FOUND" },
  "PATCH /api/chat/threads/[id]": { status: 404, code: "CHAT_THREAD_NOT_FOUND" },
  "DELETE /api/chat/threads/[id]": { status: 404, code: "CHAT_THREAD_NOT_FOUND" },
  // Search history: A's collection id is no search of B's; the same 404 as A's own history row (tests/api/cohorts.test.ts
  // deletes A's real row as B and finds it still there).
  "DELETE /api/search/analytics/history/[id]": { status: 404, code: "SEARCH_HISTORY_ENTRY_NOT_FOUND" },
  // Cited cohorts are public by their 12-character short id only; any other id (a UUID) is no cohort, signed in or not.
  "GET /api/cohorts/[id]": { status: 404, code: "COHORT_NOT_FOUND" },
};

/** Routes that take collection ids inside a filter (by the request schema they use) and what B gets with A's id. */
const FILTER_ROUTES: Record<string, { status: number; code: string; send: (aId: string) => { method: string; path: string; body?: unknown } }> = {
  "POST /api/collections/from-filter": {
    status: 404,
    code: "COLLECTION_NOT_FOUND",
    send: (id) => ({ method: "POST", path: "/api/collections/from-filter", body: { name: "B's copy of A", filters: { collection_ids: [id] } } }),
  },
  "POST /api/extractions/base-schema/aggregate": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/extractions/base-schema/aggregate", body: { filters: { collection_ids: [id] }, fields: ["decision_date"] } }),
  },
  "POST /api/reasoning-lines/discover": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/reasoning-lines/discover", body: { filters: { collection_ids: [id] }, sample_size: 20, num_clusters: 2 } }),
  },
  "POST /api/extractions/base-schema/filter": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/extractions/base-schema/filter", body: { filters: { collection_ids: [id] } } }),
  },
  "GET /api/extractions/base-schema/facets": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/extractions/base-schema/facets?field=convict_offences&filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
  "GET /api/extractions/base-schema/histogram": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/extractions/base-schema/histogram?field=decision_date&filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
  "POST /api/topic-modeling/analyze": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/topic-modeling/analyze", body: { sample_size: 20, filters: { collection_ids: [id] } } }),
  },
  "POST /api/precedents/find": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/precedents/find", body: { query: "kryptowaluta jako mienie", filters: { collection_ids: [id] } } }),
  },
  "GET /api/extractions/base-schema/export": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/extractions/base-schema/export?filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
  "GET /api/extractions/base-schema/aggregate/export": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/extractions/base-schema/aggregate/export?fields=decision_date&filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
  "GET /api/search/export": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/search/export?q=&filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
  "POST /api/cohorts/compare": {
    status: 404,
    code: "COLLECTION_NOT_FOUND",
    send: (id) => ({ method: "POST", path: "/api/cohorts/compare", body: { a: { collection_id: id }, b: { filters: {} }, fields: ["jurisdiction"] } }),
  },
  "POST /api/cohorts/compare (collection_ids in a filter)": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/cohorts/compare", body: { a: { filters: { collection_ids: [id] } }, b: { filters: {} }, fields: ["jurisdiction"] } }),
  },
  "POST /api/cohorts": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "POST", path: "/api/cohorts", body: { filters: { collection_ids: [id] } } }),
  },
  "GET /api/search/documents": {
    status: 400,
    code: "COLLECTION_IDS_NOT_ALLOWED",
    send: (id) => ({ method: "GET", path: `/api/search/documents?q=&filters=${encodeURIComponent(JSON.stringify({ collection_ids: [id] }))}` }),
  },
};
/** Signed-in routes whose request schema can carry a filter object (so collection_ids): must all be in FILTER_ROUTES. */
const filterTaking = (h: RouteHandler) =>
  h.schemas.some((s) => /(?<!Nl)Filter|Aggregate|Facets|Histogram|SearchDocuments/.test(s)) && !h.apiKeyRequired;

let a: Victim;
let b: Victim;
/**
 * The bearer attacks come from a second intruder: every request counts against its user's general limit (100 a
 * minute), and one intruder making every attack by both ways would be refused 429 part-way instead of answered.
 */
let bBearer: Victim;
let aBefore: unknown;
const A_QUERY = `a-private-query-${Date.now()}`;

beforeAll(async () => {
  a = await makeVictim(pool, "owner A");
  b = await makeVictim(pool, "intruder B");
  bBearer = await makeVictim(pool, "intruder B (bearer)");
  // A searches something private: it lands in A's history only.
  await pool.query("insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id) values ($1, 1, 1, 'text', $2)", [A_QUERY, a.id]);
  aBefore = await ownerSnapshot(pool, a.id);
}, 60_000);

afterAll(async () => {
  expect(await ownerSnapshot(pool, a.id)).toEqual(aBefore);
  await pool.end();
});

describe("the owner-only map is complete", () => {
  it("every signed-in route with an id in its path has an expected answer here", () => {
    expect(OWNER_ONLY.length).toBeGreaterThanOrEqual(7);
    expect(OWNER_ONLY.map(key).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("every signed-in route that takes a filter object is attacked with A's collection id", () => {
    const taking = ROUTES.filter(filterTaking).map(key);
    expect(taking.length).toBeGreaterThanOrEqual(5);
    for (const k of taking) expect(Object.keys(FILTER_ROUTES), k).toContain(k);
  });
});

type Via = "cookie" | "bearer";
const VIAS: Via[] = ["cookie", "bearer"];

function asB(via: Via, method: string, path: string, body?: unknown): Promise<Response> {
  if (via === "cookie") {
    const br = new Browser();
    for (const n of b.browser.cookieNames()) br.setCookie(n, b.browser.cookie(n));
    return br.request(method, path, body, sameOrigin());
  }
  return new Browser().request(method, path, body, { ...sameOrigin(), authorization: `Bearer ${bBearer.token}` });
}

async function codeOf(res: Response): Promise<string | undefined> {
  const text = await res.text();
  return text ? (JSON.parse(text) as { detail?: { code?: string } }).detail?.code : undefined;
}

describe.each(VIAS.map((v) => [v]))("B (by %s) on A's collection id", (via) => {
  it.each(OWNER_ONLY.map((h) => [key(h), h] as const))("%s → 404 COLLECTION_NOT_FOUND", async (k, h) => {
    const res = await asB(via, h.method, fillPath(h.template, { id: a.collectionId }), h.method === "GET" ? undefined : bodyFor(h.method, h.template, a));
    const want = EXPECTED[k];
    expect(res.status, k).toBe(want.status);
    expect(await codeOf(res)).toBe(want.code);
  });

  it.each(Object.entries(FILTER_ROUTES).map(([k, v]) => [k, v] as const))("%s with collection_ids [A's id] → refused", async (k, spec) => {
    const { method, path, body } = spec.send(a.collectionId);
    const res = await asB(via, method, path, body);
    expect(res.status, k).toBe(spec.status);
    expect(await codeOf(res)).toBe(spec.code);
  });

  it("the same answer for an id that does not exist (existence is not revealed, D-30)", async () => {
    const real = await asB(via, "GET", `/api/collections/${a.collectionId}`);
    const none = await asB(via, "GET", `/api/collections/${crypto.randomUUID()}`);
    expect(real.status).toBe(none.status);
    expect(await real.json()).toEqual(await none.json());
  });
});

describe("B's own views never show A's data", () => {
  it("B's collection list holds only B's collection", async () => {
    const list = (await (await b.browser.get("/api/collections")).json()) as { collections: { id: string }[]; total: number };
    expect(list.collections.map((c) => c.id)).toEqual([b.collectionId]);
    expect(list.total).toBe(1);
  });

  it("B's search history does not hold A's query; A's does", async () => {
    const bh = await (await b.browser.get("/api/search/analytics/history?limit=100")).text();
    expect(bh).not.toContain(A_QUERY);
    const ah = await (await a.browser.get("/api/search/analytics/history?limit=100")).text();
    expect(ah).toContain(A_QUERY);
  });

  it("B cannot add A's collection as a member source by id in a create (document ids only, A's id is not a judgment) → 404, nothing created", async () => {
    const before = await ownerSnapshot(pool, b.id);
    const res = await asB("cookie", "POST", "/api/collections", { name: "B steals", document_ids: [a.collectionId] });
    expect(res.status).toBe(404);
    expect(await ownerSnapshot(pool, b.id)).toEqual(before);
  });
});

describe("B on A's saved search", () => {
  it.each(VIAS.map((v) => [v]))("by %s: every saved-search route answers 404 and A's saved search is unchanged", async (via) => {
    const made = await a.browser.post("/api/saved-searches", { name: "A's private search", kind: "search", query: "robbery" }, sameOrigin());
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { id: string }).id;
    const before = (await pool.query("select * from public.saved_searches where id = $1", [id])).rows[0];
    for (const h of OWNER_ONLY.filter((r) => r.template.startsWith("/api/saved-searches/"))) {
      const res = await asB(via, h.method, fillPath(h.template, { id }), h.method === "GET" ? undefined : bodyFor(h.method, h.template, a));
      expect([key(h), res.status, await codeOf(res)]).toEqual([key(h), 404, "SAVED_SEARCH_NOT_FOUND"]);
    }
    expect((await pool.query("select * from public.saved_searches where id = $1", [id])).rows[0]).toEqual(before);
    const list = (await (await asB(via, "GET", "/api/saved-searches")).json()) as { saved_searches: { id: string }[] };
    expect(list.saved_searches.map((s) => s.id)).not.toContain(id);
    await pool.query("delete from public.saved_searches where id = $1", [id]);
  });
});
