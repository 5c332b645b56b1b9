/**
 * The assistant tools over real HTTP, no model: the precedent finder finds the planted reasoning
 * line's judgments from one of them (supabase/seed/planted-lines.ts), the argumentation rules find the planted
 * judge's teleological paragraphs, summaries and key points are sentences of the judgment, and the versions route
 * lists a change written to the judgments table newest first. Plus 401s, 404s and 422s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { rebuildAppIndex } from "../helpers/app-index";
import { adminPool, stackEnv } from "../helpers/stack";
import { generateJudgment } from "@/supabase/seed/generate";
import { JUDGE_INDEXES, LINE_INDEXES, PLANTED_JUDGE } from "@/supabase/seed/planted-lines";

const pool = adminPool();
afterAll(() => pool.end());

/** The test stack's corpus: the first 600 judgments of seed 7 (tests/helpers/test-stack.ts). */
const SEED = 7;
const lineRows = LINE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.jurisdiction === "PL");
const judgeRows = JUDGE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.judges.some((j) => j.name === PLANTED_JUDGE.name));
const NO_SUCH = "00000000-0000-4000-8000-000000000000";

async function fullText(id: string): Promise<string> {
  return (await pool.query<{ full_text: string }>("select full_text from public.judgments where id = $1", [id])).rows[0].full_text;
}

let user: Browser;
beforeAll(async () => {
  ({ browser: user } = await signedInBrowser());
  // The precedent finder retrieves through the app's search index: build it from the test database (a real sync).
  const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the assistant tools API tests");
  await rebuildAppIndex(pool, dataDir);
}, 600_000);

describe("assistant tools need a session", () => {
  it("answers 401 to anonymous callers on every route", async () => {
    const anon = new Browser();
    const id = lineRows[0].id;
    const calls: [string, string, unknown][] = [
      ["POST", "/api/precedents/find", { query: "kryptowaluta jako mienie", document_id: id }],
      ["POST", "/api/argumentation/argumentation/analyze", { document_ids: [id] }],
      ["POST", "/api/documents/summarize", { document_id: id }],
      ["POST", "/api/documents/key-points", { document_id: id }],
      ["GET", `/api/documents/${id}/versions`, undefined],
    ];
    for (const [method, path, body] of calls) expect([path, (await anon.request(method, path, body)).status]).toEqual([path, 401]);
  }, 120_000);
});

describe("precedent finder (no model)", () => {
  it("from a planted line judgment, finds its planted neighbours and never itself", async () => {
    expect(lineRows.length).toBeGreaterThanOrEqual(10);
    const source = lineRows[0];
    const res = await user.post("/api/precedents/find", {
      query: "Czy kryptowaluta jest mieniem w rozumieniu art. 115 § 9 k.k.?",
      document_id: source.id,
      limit: 10,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.mode).toBe("rules");
    expect(body.query_used).toContain("Czy kryptowaluta");
    expect(body.results.length).toBe(10);
    const ids: string[] = body.results.map((r: { id: string }) => r.id);
    expect(ids).not.toContain(source.id);
    const planted = new Set(lineRows.map((r) => r.id));
    const found = ids.filter((id) => planted.has(id));
    // Most of the ten are the line's other judgments (23 more in the slice), the first one among them.
    expect(found.length).toBeGreaterThanOrEqual(7);
    expect(planted.has(ids[0])).toBe(true);
    for (const r of body.results) {
      expect(r.similarity).toBeGreaterThanOrEqual(0);
      expect(r.similarity).toBeLessThanOrEqual(1);
      expect(r.score).toBe(r.similarity);
      expect(r).not.toHaveProperty("relevance");
      expect(Array.isArray(r.matching_factors)).toBe(true);
    }
    // The planted neighbours share the line's keywords with the source: named as matching factors.
    const neighbour = body.results.find((r: { id: string }) => planted.has(r.id));
    expect(neighbour.matching_factors.some((f: string) => f.startsWith("keyword: "))).toBe(true);
    const scores = body.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("without a source judgment, the query alone finds the line; filters restrict the candidates", async () => {
    const res = await user.post("/api/precedents/find", { query: "kryptowaluta bitcoin portfel kryptowalutowy klucz prywatny", limit: 5 });
    expect(res.status).toBe(200);
    const body = await res.json();
    const planted = new Set(lineRows.map((r) => r.id));
    expect(body.results.filter((r: { id: string }) => planted.has(r.id)).length).toBeGreaterThanOrEqual(3);
    const uk = await user.post("/api/precedents/find", { query: "kryptowaluta bitcoin portfel kryptowalutowy", filters: { jurisdiction: ["UK"] }, limit: 5 });
    expect(uk.status).toBe(200);
    const ukIds: string[] = (await uk.json()).results.map((r: { id: string }) => r.id);
    // Something to check: the hybrid search's vector part always has UK neighbours, so the filtered answer is not
    // empty, and every one of its judgments is a UK one (none of the Polish line).
    expect(ukIds.length).toBeGreaterThan(0);
    expect(ukIds.filter((id) => planted.has(id))).toEqual([]);
    const { rows } = await pool.query<{ jurisdiction: string }>("select distinct jurisdiction from public.judgments where id = any($1::uuid[])", [ukIds]);
    expect(rows.map((r) => r.jurisdiction)).toEqual(["UK"]);
  });

  it("refuses bad input with clear codes", async () => {
    const short = await user.post("/api/precedents/find", { query: "too short" });
    expect(short.status).toBe(422);
    expect((await user.post("/api/precedents/find", { query: "kryptowaluta jako mienie", limit: 51 })).status).toBe(422);
    const missing = await user.post("/api/precedents/find", { query: "kryptowaluta jako mienie", document_id: NO_SUCH });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail.code).toBe("DOCUMENT_NOT_FOUND");
    const coll = await user.post("/api/precedents/find", { query: "kryptowaluta jako mienie", filters: { collection_ids: [NO_SUCH] } });
    expect(coll.status).toBe(400);
    expect((await coll.json()).detail.code).toBe("COLLECTION_IDS_NOT_ALLOWED");
    const badFilter = await user.post("/api/precedents/find", { query: "kryptowaluta jako mienie", filters: { no_such_key: 1 } });
    expect(badFilter.status).toBe(422);
  });
});

describe("argumentation analysis (no model)", () => {
  it("finds the planted judge's teleological paragraphs, with parties and no strength", async () => {
    const doc = judgeRows[0];
    const res = await user.post("/api/argumentation/argumentation/analyze", { document_ids: [doc.id], detail_level: "detailed" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.mode).toBe("rules");
    expect(body.analyses).toHaveLength(1);
    const a = body.analyses[0];
    expect(a.document_id).toBe(doc.id);
    expect(a.arguments.length).toBeGreaterThan(0);
    expect(a.arguments.some((x: { reasoning_pattern: string }) => x.reasoning_pattern === "teleological")).toBe(true);
    const text = (await fullText(doc.id)).replace(/\s+/g, " ");
    for (const x of a.arguments) {
      expect(["prosecution", "defence", "court", "unknown"]).toContain(x.party);
      expect(["deductive", "analogical", "policy", "textual", "teleological"]).toContain(x.reasoning_pattern);
      expect(x).not.toHaveProperty("strength");
      expect(text).toContain(x.conclusion);
      expect(x.evidence.length).toBeGreaterThan(0);
    }
    expect(a.overall).toMatch(/teleological/);
  });

  it("takes 1-5 distinct ids; an unknown id is 404", async () => {
    const ids = judgeRows.slice(0, 2).map((r) => r.id);
    const two = await user.post("/api/argumentation/argumentation/analyze", { document_ids: ids, detail_level: "basic" });
    expect(two.status).toBe(200);
    const body = await two.json();
    expect(body.analyses.map((x: { document_id: string }) => x.document_id)).toEqual(ids);
    for (const x of body.analyses) expect(x.arguments.length).toBeLessThanOrEqual(5);
    const six = Array.from({ length: 6 }, (_, i) => generateJudgment(SEED, i).id);
    expect((await user.post("/api/argumentation/argumentation/analyze", { document_ids: six })).status).toBe(422);
    expect((await user.post("/api/argumentation/argumentation/analyze", { document_ids: [] })).status).toBe(422);
    expect((await user.post("/api/argumentation/argumentation/analyze", { document_ids: [ids[0], ids[0]] })).status).toBe(422);
    expect((await user.post("/api/argumentation/argumentation/analyze", { document_ids: [ids[0]], detail_level: "huge" })).status).toBe(422);
    const missing = await user.post("/api/argumentation/argumentation/analyze", { document_ids: [NO_SUCH] });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail.code).toBe("DOCUMENT_NOT_FOUND");
  });
});

describe("summaries and key points (no model)", () => {
  const doc = generateJudgment(SEED, 3);

  it("key points are sentences of the judgment", async () => {
    const res = await user.post("/api/documents/key-points", { document_id: doc.id });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ document_id: doc.id, mode: "extractive", model: null });
    expect(body.key_points.length).toBeGreaterThanOrEqual(3);
    expect(body.key_points.length).toBeLessThanOrEqual(7);
    expect(new Set(body.key_points).size).toBe(body.key_points.length);
    const text = await fullText(doc.id);
    for (const p of body.key_points) expect(text).toContain(p);
  });

  it("summaries are sentences of the judgment; longer lengths give more", async () => {
    const text = await fullText(doc.id);
    const got: Record<string, { summary: string; summaries: { sentences: { text: string; start: number }[] }[] }> = {};
    for (const length of ["short", "long"]) {
      const res = await user.post("/api/documents/summarize", { document_id: doc.id, length });
      expect(res.status).toBe(200);
      got[length] = await res.json();
      expect(got[length]).toMatchObject({ mode: "extractive", length, model: null });
      for (const s of got[length].summaries[0].sentences) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
    }
    expect(got.short.summaries[0].sentences.length).toBe(3);
    expect(got.long.summaries[0].sentences.length).toBeGreaterThan(3);
    // Deterministic: the same request gives the same summary.
    const again = await (await user.post("/api/documents/summarize", { document_id: doc.id, length: "short" })).json();
    expect(again.summary).toBe(got.short.summary);
  });

  it("several documents: one summary each; bad bodies are 422, unknown ids 404", async () => {
    const ids = [generateJudgment(SEED, 3).id, generateJudgment(SEED, 4).id];
    const res = await user.post("/api/documents/summarize", { document_ids: ids, length: "short" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.summaries.map((s: { document_id: string }) => s.document_id)).toEqual(ids);
    expect((await user.post("/api/documents/summarize", { document_id: ids[0], document_ids: ids })).status).toBe(422);
    expect((await user.post("/api/documents/summarize", { length: "short" })).status).toBe(422);
    expect((await user.post("/api/documents/summarize", { document_id: ids[0], length: "epic" })).status).toBe(422);
    expect((await user.post("/api/documents/key-points", { document_id: "not-a-uuid" })).status).toBe(422);
    expect((await user.post("/api/documents/key-points", { document_id: NO_SUCH })).status).toBe(404);
  });
});

describe("versions", () => {
  // A judgment no other suite reads for planted answers (index 590 is no known answer, no planted line).
  const doc = generateJudgment(SEED, 590);

  it("lists a change to the judgment newest first, with the changed columns only", async () => {
    const before = (await pool.query<{ keywords: string[] | null; full_text: string }>("select keywords, full_text from public.judgments where id = $1", [doc.id])).rows[0];
    await pool.query("update public.judgments set keywords = $2 where id = $1", [doc.id, ["test-version-keyword"]]);
    await pool.query("update public.judgments set full_text = full_text || ' ' where id = $1", [doc.id]);
    try {
      const res = await user.get(`/api/documents/${doc.id}/versions?limit=2`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.document_id).toBe(doc.id);
      expect(body.versions).toHaveLength(2);
      const [newest, older] = body.versions;
      expect(newest.id).toBeGreaterThan(older.id);
      expect(newest.changed_columns).toEqual(["full_text"]);
      // Long values are kept as length and hash, never copied.
      expect(newest.new_values.full_text).toEqual({ length: before.full_text.length + 1, md5: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(older.changed_columns).toEqual(["keywords"]);
      expect(older.old_values.keywords).toEqual(before.keywords);
      expect(older.new_values.keywords).toEqual(["test-version-keyword"]);
      expect(body.next_before).toBe(older.id);
    } finally {
      await pool.query("update public.judgments set keywords = $2, full_text = $3 where id = $1", [doc.id, before.keywords, before.full_text]);
    }
  });

  it("404 for an id that is no judgment, 400 for a malformed one", async () => {
    const res = await user.get(`/api/documents/${NO_SUCH}/versions`);
    expect(res.status).toBe(404);
    expect((await res.json()).detail.code).toBe("DOCUMENT_NOT_FOUND");
    expect((await user.get("/api/documents/not-a-uuid/versions")).status).toBe(400);
    expect((await user.get(`/api/documents/${doc.id}/versions?limit=101`)).status).toBe(422);
  });
});
