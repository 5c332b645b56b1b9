import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/backend/api-keys";
import { V1_OPERATIONS } from "@/lib/backend/api-v1/openapi";
import { adminPool, stackEnv } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { rebuildAppIndex } from "../helpers/app-index";
import { userWithToken } from "../helpers/supabase";

/**
 * The reference API for servers and its API keys, over real HTTP: keys made in settings, every
 * /api/v1 route refusing a missing, unknown, revoked or expired key in the reference shape, the key acting as its user
 * (RLS: another user's collection is 404 and their schemas are not listed, a bearer token changes nothing), validation
 * details, the Link header, the X-RateLimit-* headers, and each endpoint's shape. The shared app has no language model,
 * so schema generation answers 503 LLM_NOT_CONFIGURED here (tests/api/api-v1-model.test.ts drives it with a model).
 */
const pool = adminPool();
const dataDir = stackEnv().searchDataDir ?? process.env.SEARCH_DATA_DIR;

type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;

let alice: Browser;
let bob: Browser;
let aliceKey: string;
let bobKey: string;
let docIds: string[] = [];
/** A server client with a loopback address of its own per test: the per-address limit (100/min) is not under test here. */
let api = new Browser();
beforeEach(() => {
  api = new Browser();
});
const asAlice = () => ({ "x-api-key": aliceKey });

async function createKey(b: Browser, body: Json = { name: "script" }) {
  const res = await b.post("/api/settings/api-keys", body);
  expect(res.status).toBe(201);
  return (await json(res)) as { id: string; key: string; prefix: string; name: string; expires_at: string | null };
}

beforeAll(async () => {
  if (!dataDir) throw new Error("the test stack has no searchDataDir");
  await rebuildAppIndex(pool, dataDir);
  [{ browser: alice }, { browser: bob }] = await Promise.all([signedInBrowser(), signedInBrowser()]);
  aliceKey = (await createKey(alice)).key;
  bobKey = (await createKey(bob)).key;
  docIds = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 3")).rows.map((r) => r.id);
}, 180_000);

afterAll(() => pool.end());

/** A request for each documented operation that needs a key (valid body where one is needed). */
function sampleRequest(op: (typeof V1_OPERATIONS)[number]): { method: "GET" | "POST"; path: string; body?: Json } {
  const path = op.path.replace("{id}", docIds[0] ?? randomUUID());
  const bodies: Record<string, Json> = {
    "/api/v1/documents/search": { query: "appeal" },
    "/api/v1/search/semantic": { query: "appeal" },
    "/api/v1/collections": { name: "sample" },
    "/api/v1/feedback": { type: "search", rating: 4 },
    "/api/v1/cohorts/compare": { a: { filters: { jurisdiction: ["PL"] } }, b: { filters: { jurisdiction: ["UK"] } }, fields: ["jurisdiction"] },
    "/api/v1/schemas/generate": { description: "sentence length and mitigating factors" },
    "/api/v1/chat": { message: "x" },
    "/api/v1/qa": { question: "x" },
    "/api/v1/extractions/base-schema/aggregate": { fields: ["base_appellant"] },
  };
  return op.method === "get" ? { method: "GET", path } : { method: "POST", path, body: bodies[op.path] ?? {} };
}

describe("API keys in settings", () => {
  it("lists, shows a key once, refuses bad input, limits to 10 active keys, revokes only one's own", async () => {
    expect((await new Browser().get("/api/settings/api-keys")).status).toBe(401);
    const b = (await signedInBrowser()).browser;
    const made = await createKey(b, { name: "  nightly export  " });
    expect(made.key).toMatch(/^jsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: "nightly export", prefix: made.key.slice(0, 8), expires_at: null });
    const list = await json(await b.get("/api/settings/api-keys"));
    expect(list.max_active).toBe(10);
    expect(list.keys).toEqual([expect.objectContaining({ id: made.id, prefix: made.key.slice(0, 8), last_used_at: null })]);
    expect(JSON.stringify(list)).not.toContain(made.key); // shown once: never listed again

    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "past", expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
      [{ name: "x", extra: 1 }, ""],
    ] as const) {
      const res = await b.post("/api/settings/api-keys", body);
      expect(res.status).toBe(422);
      const fields = ((await json(res)).detail as { fields: { field: string }[] }).fields.map((f) => f.field);
      if (field) expect(fields).toContain(field);
    }

    for (let i = 1; i < 10; i++) await createKey(b, { name: `k${i}` });
    const over = await b.post("/api/settings/api-keys", { name: "eleventh" });
    expect(over.status).toBe(409);
    expect(((await json(over)).detail as Json).code).toBe("API_KEY_LIMIT");

    // Another user's key is not found; one's own is revoked (204) and stops working at once.
    expect((await alice.delete(`/api/settings/api-keys/${made.id}`)).status).toBe(404);
    expect((await alice.delete("/api/settings/api-keys/not-a-uuid")).status).toBe(404);
    expect((await api.get("/api/v1/health", { "x-api-key": made.key })).status).toBe(200);
    expect((await b.delete(`/api/settings/api-keys/${made.id}`)).status).toBe(204);
    const revoked = await api.get("/api/v1/health", { "x-api-key": made.key });
    expect(revoked.status).toBe(401);
    expect(await json(revoked)).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code: "INVALID_API_KEY" } });
    // A slot is free again.
    await createKey(b, { name: "replacement", expires_at: new Date(Date.now() + 86_400_000).toISOString() });
  });

  it("records last_used_at when a key is used", async () => {
    const made = await createKey(alice, { name: "touch" });
    expect((await api.get("/api/v1/trends", { "x-api-key": made.key })).status).toBe(200);
    const { rows } = await pool.query<{ last_used_at: Date | null }>("select last_used_at from public.api_keys where id = $1", [made.id]);
    // The touch is written after the answer: poll the row rather than time it.
    let used = rows[0]?.last_used_at ?? null;
    for (let i = 0; i < 50 && !used; i++) {
      await new Promise((r) => setTimeout(r, 100));
      used = (await pool.query<{ last_used_at: Date | null }>("select last_used_at from public.api_keys where id = $1", [made.id])).rows[0]?.last_used_at ?? null;
    }
    expect(used).toBeInstanceOf(Date);
  });
});

describe("authentication of every /api/v1 route", () => {
  const keyed = V1_OPERATIONS.filter((op) => !op.public);

  it("answers 401 in the reference shape without a key, with an unknown key, and with an expired key", async () => {
    const expired = await createKey(alice, { name: "expires soon" });
    await pool.query("update public.api_keys set expires_at = now() - interval '1 minute' where id = $1", [expired.id]);
    const cases: [Record<string, string>, string][] = [
      [{}, "API_KEY_REQUIRED"],
      [{ "x-api-key": `jsk_${"0".repeat(12)}_${"A".repeat(43)}` }, "INVALID_API_KEY"],
      [{ "x-api-key": "not-a-key" }, "INVALID_API_KEY"],
      [{ "x-api-key": expired.key }, "INVALID_API_KEY"],
    ];
    await Promise.all(
      keyed.map(async (op) => {
        const { method, path, body } = sampleRequest(op);
        const client = new Browser();
        for (const [headers, code] of cases) {
          const res = await client.request(method, path, body, headers);
          expect([method, path, code, res.status]).toEqual([method, path, code, 401]);
          expect(await json(res)).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code } });
        }
      }),
    );
  }, 120_000);

  it("reports the per-key limit in X-RateLimit-* on every answer", async () => {
    for (const op of keyed) {
      const { method, path, body } = sampleRequest(op);
      const res = await api.request(method, path, body, asAlice());
      // The generator's one 5xx here is the documented 503 of a server without a model.
      const noModel = res.status === 503 && op.path === "/api/v1/schemas/generate";
      expect([path, res.status < 500 || noModel]).toEqual([path, true]);
      expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
      expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(1000);
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    }
  });
});

describe("the key acts as its user (RLS)", () => {
  it("creates, lists and reads the key user's collections; another user's is 404; a bearer token changes nothing", async () => {
    const created = await api.post("/api/v1/collections", { name: "From the API", description: "scripted", document_ids: docIds.slice(0, 2), tags: ["api"] }, asAlice());
    expect(created.status).toBe(201);
    const col = (await json(created)) as { id: string; document_count: number; name: string };
    expect(col).toMatchObject({ name: "From the API", document_count: 2 });

    // The same collection through the web tier as Alice: the API wrote it as her.
    expect((await alice.get(`/api/collections/${col.id}`)).status).toBe(200);

    const one = await json(await api.get(`/api/v1/collections/${col.id}`, asAlice()));
    expect(one.documents).toEqual(expect.arrayContaining(docIds.slice(0, 2).map((id) => expect.objectContaining({ id, added_at: expect.any(String) }))));

    const foreign = await api.get(`/api/v1/collections/${col.id}`, { "x-api-key": bobKey });
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toMatchObject({ error: "NotFound", status_code: 404, details: { code: "COLLECTION_NOT_FOUND" } });

    // Bob's bearer token beside Alice's key: the key decides, so Alice's collections are listed.
    const bobToken = (await userWithToken("v1-bearer")).token;
    const list = await json(await api.get("/api/v1/collections", { ...asAlice(), authorization: `Bearer ${bobToken}` }));
    expect((list.collections as { id: string }[]).map((c) => c.id)).toContain(col.id);
    const bobs = await json(await api.get("/api/v1/collections", { "x-api-key": bobKey }));
    expect((bobs.collections as { id: string }[]).map((c) => c.id)).not.toContain(col.id);
  });
});

describe("validation, lists and shapes", () => {
  it("lists the offending fields in details (reference validation body)", async () => {
    const res = await api.get("/api/v1/documents?limit=500&jurisdiction=FR", asAlice());
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body).toMatchObject({ error: "ValidationError", status_code: 422, details: { code: "VALIDATION_ERROR" } });
    expect((body.details as { fields: { field: string }[] }).fields.map((f) => f.field).sort()).toEqual(["jurisdiction", "limit"]);
    const bad = await api.post("/api/v1/documents/search", { query: "", search_type: "fuzzy" }, asAlice());
    expect(((await json(bad)).details as { fields: { field: string }[] }).fields.map((f) => f.field).sort()).toEqual(["query", "search_type"]);
  });

  it("pages GET /api/v1/documents with first and next links", async () => {
    const res = await api.get("/api/v1/documents?limit=2&jurisdiction=PL&sort_order=asc", asAlice());
    expect(res.status).toBe(200);
    const body = await json(res);
    const total = (await pool.query<{ n: string }>("select count(*) n from public.judgments where jurisdiction = 'PL'")).rows[0].n;
    expect(body).toMatchObject({ total: Number(total), page: 1, per_page: 2, pages: Math.ceil(Number(total) / 2) });
    expect((body.results as Json[]).every((r) => r.jurisdiction === "PL")).toBe(true);
    const link = res.headers.get("link") ?? "";
    expect(link).toContain('</api/v1/documents?limit=2&jurisdiction=PL&sort_order=asc&offset=0>; rel="first"');
    expect(link).toContain('offset=2>; rel="next"');
    const last = await api.get(`/api/v1/documents?limit=2&offset=${Number(total) - 1}&jurisdiction=PL`, asAlice());
    expect(last.headers.get("link")).not.toContain('rel="next"');
  });

  it("answers each endpoint in its reference shape", async () => {
    const search = await json(await api.post("/api/v1/documents/search", { query: "appeal", limit: 3, include_similar: true }, asAlice()));
    expect(search).toMatchObject({ page: 1, per_page: 3, search_metadata: { search_type: "hybrid" } });
    const first = (search.results as Json[])[0];
    expect(first).toMatchObject({ id: expect.any(String), score: expect.any(Number), highlights: { full_text: expect.any(Array), summary: expect.any(Array) } });
    expect(Array.isArray(first.similar)).toBe(true);

    const similar = await json(await api.post(`/api/v1/documents/${docIds[0]}/similar`, { limit: 2 }, asAlice()));
    expect((similar.results as Json[]).length).toBeLessThanOrEqual(2);
    expect(similar.total).toBe((similar.results as Json[]).length);

    const semantic = await json(await api.post("/api/v1/search/semantic", { query: "appeal", min_similarity: 0 }, asAlice()));
    expect(semantic).toMatchObject({ total: expect.any(Number), query_metadata: { embedding_time_ms: expect.any(Number), search_time_ms: expect.any(Number) } });

    const facets = await json(await api.post("/api/v1/search/facets", { filters: { jurisdiction: "UK" } }, asAlice()));
    const uk = (await pool.query<{ n: string }>("select count(*) n from public.judgments where jurisdiction = 'UK'")).rows[0].n;
    expect(facets).toMatchObject({ total: Number(uk), facets: { jurisdiction: { UK: Number(uk) } } });

    const refused = await api.post("/api/v1/extractions/base-schema/aggregate", { filters: { collection_ids: [randomUUID()] }, fields: ["base_appellant"] }, asAlice());
    expect(await json(refused)).toMatchObject({ status_code: 400, details: { code: "COLLECTION_IDS_NOT_ALLOWED" } });

    const stats = await json(await api.get("/api/v1/statistics?jurisdiction=PL", asAlice()));
    expect(stats).toMatchObject({ by_jurisdiction: { PL: expect.any(Number) }, search_activity: { popular_queries: expect.any(Array) } });
    const trends = await json(await api.get("/api/v1/trends", asAlice()));
    expect(trends).toMatchObject({ trends: { decisions_by_month: expect.any(Array) } });

    const schemas = await json(await api.get("/api/v1/schemas", asAlice()));
    expect(schemas).toMatchObject({ total: expect.any(Number), page: 1, per_page: 20, pages: expect.any(Number) });
    expect((schemas.schemas as Json[])[0]).toEqual({ id: "base", name: "Base schema", description: expect.any(String), version: 1, created_at: expect.any(String) });

    const fb = await api.post("/api/v1/feedback", { type: "document", rating: 5, comment: "useful", context: { document_id: docIds[0] } }, asAlice());
    expect(fb.status).toBe(201);
    const stored = (await json(fb)) as { id: string };
    const row = await pool.query("select rating, comment, context->>'document_id' doc from public.api_feedback where id = $1", [stored.id]);
    expect(row.rows[0]).toEqual({ rating: 5, comment: "useful", doc: docIds[0] });
  });

  it("serves the OpenAPI document without a key", async () => {
    const res = await new Browser().get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.openapi).toBe("3.1.0");
    expect((doc.paths as Json)["/api/v1/schemas"]).not.toHaveProperty("get.x-not-implemented");
    expect((doc.paths as Json)["/api/v1/schemas/generate"]).not.toHaveProperty("post.x-not-implemented");
    expect((doc.paths as Json)["/api/v1/chat"]).not.toHaveProperty("post.x-not-implemented");
    expect((doc.paths as Json)["/api/v1/qa"]).not.toHaveProperty("post.x-not-implemented");
  });
});

describe("extraction schemas on the reference API", () => {
  const FIELDS = [{ name: "sentence_years", type: "number", description: "custodial term in years" }];
  const names = (body: Json) => (body.schemas as { name: string }[]).map((s) => s.name);

  it("GET /api/v1/schemas lists the base schema and the key user's own, never another user's, as the web list does", async () => {
    const { browser: carol } = await signedInBrowser();
    const carolKey = (await createKey(carol)).key;
    for (const name of ["Carol one", "Carol two", "Carol three"]) expect((await carol.post("/api/schemas", { name, fields: FIELDS })).status).toBe(201);
    expect((await bob.post("/api/schemas", { name: "Bob's private schema", fields: FIELDS })).status).toBe(201);

    const res = await api.get("/api/v1/schemas", { "x-api-key": carolKey });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ total: 4, page: 1, per_page: 20, pages: 1 });
    expect(names(body)).toEqual(["Base schema", "Carol three", "Carol two", "Carol one"]);
    for (const s of body.schemas as Json[]) expect(Object.keys(s).sort()).toEqual(["created_at", "description", "id", "name", "version"]);
    // The same rows, in the same order, as the web tier's list for Carol.
    const web = await json(await carol.get("/api/schemas"));
    expect(body.schemas).toEqual(web.schemas);
    expect(JSON.stringify(body)).not.toContain("Bob's private schema");
    // A bearer token of another user beside the key changes nothing: the key decides.
    const bobToken = (await userWithToken("v1-schemas-bearer")).token;
    expect(names(await json(await api.get("/api/v1/schemas", { "x-api-key": carolKey, authorization: `Bearer ${bobToken}` })))).toEqual(names(body));
    expect(names(await json(await api.get("/api/v1/schemas", { "x-api-key": bobKey })))).not.toContain("Carol one");
  });

  it("pages with limit/offset and a Link header, and validates them like every v1 list", async () => {
    const { browser: dan } = await signedInBrowser();
    const danKey = { "x-api-key": (await createKey(dan)).key };
    for (const name of ["D1", "D2", "D3"]) expect((await dan.post("/api/schemas", { name, fields: FIELDS })).status).toBe(201);

    const first = await api.get("/api/v1/schemas?limit=2", danKey);
    expect(await json(first)).toMatchObject({ total: 4, page: 1, per_page: 2, pages: 2, schemas: [{ id: "base" }, { name: "D3" }] });
    const link = first.headers.get("link") ?? "";
    expect(link).toContain('</api/v1/schemas?limit=2&offset=0>; rel="first"');
    expect(link).toContain('</api/v1/schemas?limit=2&offset=2>; rel="next"');
    const second = await api.get("/api/v1/schemas?limit=2&offset=2", danKey);
    expect(names(await json(second))).toEqual(["D2", "D1"]);
    expect(second.headers.get("link")).not.toContain('rel="next"');
    const past = await json(await api.get("/api/v1/schemas?limit=2&offset=10", danKey));
    expect(past).toMatchObject({ total: 4, schemas: [] });

    const bad = await api.get("/api/v1/schemas?limit=0&offset=-1", danKey);
    expect(bad.status).toBe(422);
    expect(((await json(bad)).details as { fields: { field: string }[] }).fields.map((f) => f.field).sort()).toEqual(["limit", "offset"]);
    expect((await api.get("/api/v1/schemas?limit=101", danKey)).status).toBe(422);
    expect((await api.get("/api/v1/schemas?page=2", danKey)).status).toBe(422);
  });

  it("refuses a missing key (401) and a key issued to no user (403 API_KEY_USER_REQUIRED)", async () => {
    const none = await new Browser().get("/api/v1/schemas");
    expect(none.status).toBe(401);
    expect(await json(none)).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code: "API_KEY_REQUIRED" } });
    const server = generateApiKey();
    await pool.query("insert into public.api_keys (name, prefix, key_hash, user_id) values ('userless', $1, $2, null)", [server.prefix, server.hash]);
    const userless = await api.get("/api/v1/schemas", { "x-api-key": server.key });
    expect(userless.status).toBe(403);
    expect(await json(userless)).toMatchObject({ status_code: 403, details: { code: "API_KEY_USER_REQUIRED" } });
  });

  it("POST /api/v1/schemas/generate: 503 LLM_NOT_CONFIGURED without a model (nothing stored), 422 on a bad body, 401 without a key", async () => {
    const count = async () => Number((await pool.query("select count(*) from public.extraction_schemas")).rows[0].count);
    const before = await count();
    const res = await api.post("/api/v1/schemas/generate", { description: "the offences, sentences and outcome of each appeal", example_document_id: docIds[0] }, asAlice());
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({ error: "ServiceUnavailable", status_code: 503, details: { code: "LLM_NOT_CONFIGURED" } });
    expect(await count()).toBe(before);

    for (const [body, fields] of [
      [{}, ["description"]],
      [{ description: "   short   " }, ["description"]],
      [{ description: "x".repeat(4001) }, ["description"]],
      [{ description: "sentences and their length", example_document_id: "not-a-uuid" }, ["example_document_id"]],
      [{ description: "sentences and their length", extra: true }, ["body"]],
    ] as const) {
      const bad = await api.post("/api/v1/schemas/generate", body, asAlice());
      expect([JSON.stringify(body).slice(0, 60), bad.status]).toEqual([JSON.stringify(body).slice(0, 60), 422]);
      const got = ((await json(bad)).details as { fields: { field: string }[] }).fields.map((f) => f.field);
      for (const f of fields) expect(got).toContain(f);
    }
    expect((await new Browser().post("/api/v1/schemas/generate", { description: "sentences and their length" })).status).toBe(401);
  });
});

describe("chat and question answering on the reference API (no model: extractive)", () => {
  type Src = { id: string; case_number: string | null; title: string | null; relevance: number };
  const jurisdictionsOf = async (ids: string[]) =>
    (await pool.query<{ jurisdiction: string }>("select distinct jurisdiction from public.judgments where id = any($1::uuid[])", [ids])).rows.map((r) => r.jurisdiction);

  it("POST /api/v1/chat stream false: {response, sources, metadata} over real retrieval; nothing stored", async () => {
    const threads = async () => Number((await pool.query("select count(*) from public.chat_threads")).rows[0].count);
    const before = await threads();
    const res = await api.post("/api/v1/chat", { message: "robbery appeal against sentence", stream: false, filters: { jurisdiction: "UK" } }, asAlice());
    expect(res.status).toBe(200);
    const body = (await json(res)) as { response: string; sources: Src[]; metadata: Json };
    expect(body.response).toMatch(/^Extractive answer/);
    expect(body.sources.length).toBeGreaterThan(0);
    for (const s of body.sources) expect(Object.keys(s).sort()).toEqual(["case_number", "id", "relevance", "title"]);
    expect(await jurisdictionsOf(body.sources.map((s) => s.id))).toEqual(["UK"]);
    expect(body.metadata).toMatchObject({ model: null, mode: "extractive", tokens_used: 0, retrieval_time_ms: expect.any(Number), generation_time_ms: expect.any(Number) });
    expect(await threads()).toBe(before);
  });

  it("POST /api/v1/chat streams token, sources and done events; thread_id and passage-less filters are 422", async () => {
    const res = await api.post("/api/v1/chat", { message: "robbery appeal against sentence" }, asAlice());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .filter((b) => b.trim() !== "")
      .map((b) => JSON.parse(b.replace(/^data: /, "")) as { type: string; content?: string; sources?: Src[]; metadata?: Json; error?: unknown });
    expect(events[0].type).toBe("sources");
    expect(events[0].sources?.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === "token").length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: "done", thread_id: null, message_id: null, metadata: { mode: "extractive" } });
    expect(events.at(-1)?.error).toBeUndefined();
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(["sources", "token", "done"]));

    const threaded = await api.post("/api/v1/chat", { message: "x", thread_id: randomUUID() }, asAlice());
    expect(threaded.status).toBe(422);
    expect(await json(threaded)).toMatchObject({ status_code: 422, details: { fields: [expect.objectContaining({ field: "thread_id" })] } });
    expect((await api.post("/api/v1/chat", { message: "x", filters: { court_level: "Crown Court" } }, asAlice())).status).toBe(422);
    expect((await new Browser().post("/api/v1/chat", { message: "x" })).status).toBe(401);
  });

  it("POST /api/v1/qa: {answer, confidence, sources[{id, case_number, excerpt}], mode} under the context filters", async () => {
    const res = await api.post("/api/v1/qa", { question: "Why was the sentence reduced?", context_filters: { jurisdiction: "PL", decision_date_from: "2000-01-01" } }, asAlice());
    expect(res.status).toBe(200);
    const body = (await json(res)) as { answer: string; confidence: number; sources: { id: string; case_number: string | null; excerpt: string }[]; mode: string };
    expect(body.mode).toBe("extractive");
    expect(body.confidence).toBeGreaterThanOrEqual(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(body.sources.length).toBeGreaterThan(0);
    expect(await jurisdictionsOf(body.sources.map((s) => s.id))).toEqual(["PL"]);
    // Each answer line after the first is a sentence of the source it cites ([n] or [n, ¶ p]); when no sentence
    // answers, a line saying so comes first.
    for (const line of body.answer.split("\n").slice(1).filter((l) => l.trim() !== "" && !/^No sentence of the retrieved/.test(l))) {
      const m = /^(.*) \[(\d+)(?:, ¶ \d+)?\]$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(body.sources[Number(m![2]) - 1].excerpt).toContain(m![1]);
    }
    expect((await api.post("/api/v1/qa", { question: "" }, asAlice())).status).toBe(422);
  });
});
