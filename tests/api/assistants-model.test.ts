/**
 * The assistants' model paths over real HTTP (mode "llm"): an app of its own pointed at a fake
 * OpenAI-compatible server (tests/helpers/fake-openai.ts; the only mocked part is the model), over the real test
 * corpus and search index. POST /api/qa answers with the model's streamed text over real retrieval, and a failing
 * model is 502; the precedent finder's whole model path (retrieval → one scoring call → 0.4·similarity +
 * 0.6·relevance → re-ranked) and a malformed scoring answer; the chat stream in model mode.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_SYSTEM_PROMPT } from "@/lib/llm/prompts/chat";
import { generateJudgment } from "@/supabase/seed/generate";
import { LINE_INDEXES } from "@/supabase/seed/planted-lines";
import { rebuildAppIndex } from "../helpers/app-index";
import { startExtraApp } from "../helpers/extra-app";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "../helpers/fake-openai";
import { Browser, createUser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import type { TestApp } from "../helpers/test-app";

const pool = adminPool();
/** The test stack's corpus: seed 7 (tests/helpers/test-stack.ts); the planted reasoning line's Polish judgments. */
const lineRows = LINE_INDEXES.map((i) => generateJudgment(7, i)).filter((r) => r.jurisdiction === "PL");
const planted = new Set(lineRows.map((r) => r.id));

let fake: FakeOpenAI;
let app: TestApp;
let user: Browser;

beforeAll(async () => {
  const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the assistant model API tests");
  await rebuildAppIndex(pool, dataDir);
  fake = await startFakeOpenAI();
  app = await startExtraApp(stackEnv(), { OPENAI_API_KEY: "sk-test-not-a-secret", OPENAI_BASE_URL: fake.baseUrl, LLM_MODEL: "fake-model" });
  const u = await createUser();
  user = new Browser(app.url);
  expect((await user.post("/api/auth/sign-in", { email: u.email, password: u.password })).status).toBe(200);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await pool.end();
});

/** The text of a request's messages of one role. */
function textOf(req: ChatRequest | undefined, role: string): string {
  return (req?.messages ?? [])
    .filter((m) => m.role === role)
    .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? "").join("") : ""))
    .join("\n");
}

const QUESTION = "Czy kryptowaluta jest mieniem w rozumieniu art. 115 § 9 k.k.?";

describe("POST /api/qa with a model (mode llm)", () => {
  it("answers with the model's text over real retrieval; the model saw only the numbered passages", async () => {
    const before = fake.requests.length;
    fake.answer("*", "Tak, kryptowaluta jest mieniem [1].");
    const res = await user.post("/api/qa", { question: QUESTION });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; confidence: number; sources: { id: string; case_number: string | null; excerpt: string }[]; mode: string };
    expect(body.mode).toBe("llm");
    expect(body.answer).toBe("Tak, kryptowaluta jest mieniem [1].");
    expect(body.confidence).toBeGreaterThan(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.sources.some((s) => planted.has(s.id))).toBe(true);
    // One streamed call; the system prompt forbids unsupported claims; the user turn holds the question and every
    // returned source's excerpt, numbered.
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1);
    expect(sent?.model).toBe("fake-model");
    expect(sent?.stream).toBe(true);
    expect(textOf(sent, "system")).toBe(CHAT_SYSTEM_PROMPT);
    const prompt = textOf(sent, "user");
    expect(prompt).toContain(QUESTION);
    body.sources.forEach((s, i) => expect(prompt).toContain(`[${i + 1}] `));
    for (const s of body.sources) expect(prompt).toContain(s.excerpt);
    // Passages of at most 5 judgments, each a stored judgment.
    const ids = [...new Set(body.sources.map((s) => s.id))];
    expect(ids.length).toBeLessThanOrEqual(5);
    const { rows } = await pool.query<{ id: string }>("select id::text from public.judgments where id = any($1::uuid[])", [ids]);
    expect(rows).toHaveLength(ids.length);
  });

  it("a model that refuses the call is 502 CHAT_GENERATION_FAILED, without the provider's message", async () => {
    fake.answer("*", { status: 400, body: { error: { message: "secret upstream detail", type: "invalid_request_error" } } });
    const res = await user.post("/api/qa", { question: QUESTION });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text).detail.code).toBe("CHAT_GENERATION_FAILED");
    expect(text).not.toContain("secret upstream detail");
  });
});

describe("POST /api/precedents/find with a model (mode llm)", () => {
  /** The scorer: the planted line's candidates are on point (0.9), the rest are not (0.1). */
  function scoreCandidates(req: ChatRequest): string {
    const ids = [...textOf(req, "user").matchAll(/^id: ([0-9a-f-]{36})$/gm)].map((m) => m[1]);
    return JSON.stringify({
      results: ids.map((id) => ({
        id,
        relevance: planted.has(id) ? 0.9 : 0.1,
        factors: planted.has(id) ? ["same legal question"] : [],
        explanation: planted.has(id) ? "Decides whether a cryptocurrency is property." : "Unrelated.",
      })),
    });
  }

  it("retrieves, scores every candidate in one call, and ranks by 0.4·similarity + 0.6·relevance", async () => {
    const before = fake.requests.length;
    fake.answer("*", scoreCandidates);
    const source = lineRows[0];
    const res = await user.post("/api/precedents/find", { query: QUESTION, document_id: source.id, limit: 5 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      mode: string;
      model: string | null;
      tokens_used: number;
      results: { id: string; similarity: number; relevance: number; score: number; matching_factors: string[]; explanation: string }[];
    };
    expect(body).toMatchObject({ mode: "llm", model: "fake-model", tokens_used: 20 });
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1);
    expect(sent?.response_format?.type).toBe("json_schema");
    // More candidates went to the model than are returned (PRECEDENTS_CANDIDATE_FACTOR), the source never.
    const offered = [...textOf(sent, "user").matchAll(/^id: ([0-9a-f-]{36})$/gm)].map((m) => m[1]);
    expect(offered.length).toBeGreaterThan(5);
    expect(offered).not.toContain(source.id);

    expect(body.results).toHaveLength(5);
    for (const r of body.results) {
      expect(offered).toContain(r.id);
      expect(r.relevance).toBe(planted.has(r.id) ? 0.9 : 0.1);
      expect(r.score).toBeCloseTo(0.4 * r.similarity + 0.6 * r.relevance, 4);
      expect(r.explanation).toBe(planted.has(r.id) ? "Decides whether a cryptocurrency is property." : "Unrelated.");
      if (planted.has(r.id)) expect(r.matching_factors[0]).toBe("same legal question");
    }
    const scores = body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The line has more than five other judgments among the candidates: all five are planted neighbours.
    expect(body.results.every((r) => planted.has(r.id))).toBe(true);
  });

  it("a malformed scoring answer is 502 ASSISTANT_OUTPUT_INVALID", async () => {
    fake.answer("*", JSON.stringify({ results: [{ id: "x", relevance: 7 }] }));
    const res = await user.post("/api/precedents/find", { query: QUESTION, limit: 5 });
    expect(res.status).toBe(502);
    expect((await res.json()).detail.code).toBe("ASSISTANT_OUTPUT_INVALID");
  });

  it("include_analysis: false skips the model (mode rules)", async () => {
    const before = fake.requests.length;
    const res = await user.post("/api/precedents/find", { query: QUESTION, limit: 5, include_analysis: false });
    expect(res.status).toBe(200);
    expect((await res.json()).mode).toBe("rules");
    expect(fake.requests.length).toBe(before);
  });
});

describe("POST /api/chat with a model: the stream", () => {
  it("streams the model's deltas as token events after sources, and done carries mode llm and the tokens used", async () => {
    fake.answer("*", "Kryptowaluta jest mieniem ruchomym [1], co potwierdza orzecznictwo [2].");
    const res = await user.post("/api/chat", { message: QUESTION });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .filter((b) => b.trim() !== "")
      .map((b) => JSON.parse(b.replace(/^data: /, "")) as { type: string; content?: string; sources?: { id: string }[]; metadata?: Record<string, unknown>; error?: unknown });
    expect(events[0].type).toBe("sources");
    expect(events[0].sources?.length).toBeGreaterThan(0);
    const tokens = events.filter((e) => e.type === "token");
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.map((e) => e.content).join("")).toBe("Kryptowaluta jest mieniem ruchomym [1], co potwierdza orzecznictwo [2].");
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "done", metadata: { mode: "llm", model: "fake-model", tokens_used: 20 } });
    expect(done?.error).toBeUndefined();
  });
});
