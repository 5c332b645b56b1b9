import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { deleteFixtureRows, insertFixtureRows, rebuildAppIndex } from "../helpers/app-index";
import { F } from "../search-conformance/fixture";

/**
 * POST /api/chat, the thread routes and POST /api/qa over real HTTP against the app with no model configured (mode
 * "extractive"): retrieval runs on the real LanceDB index built by a real sync from the test database (the search
 * conformance fixture, planted here), the answer's sentences are checked against the sources it returned, the sources
 * against Postgres, and the thread and the events are read back from Postgres.
 */
const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;
const QUESTION = "What pierced the left ventricle?";
const MARKER = /serrated blade that pierced the left ventricle/i;

let pool: pg.Pool;
// The first request to each route compiles it under `next dev` on a loaded machine: a budget, not an assertion.
vi.setConfig({ testTimeout: 180_000 });

beforeAll(async () => {
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the chat API tests");
  pool = adminPool();
  await insertFixtureRows(pool);
  await rebuildAppIndex(pool, dataDir);
}, 180_000);

afterAll(async () => {
  if (pool) await deleteFixtureRows(pool);
  await pool?.end();
});

interface Source { id: string; case_number: string | null; title: string | null; relevance: number; excerpt: string; position: number }
type Ev =
  | { type: "token"; content: string }
  | { type: "sources"; sources: Source[] }
  | { type: "done"; thread_id: string; message_id: string | null; metadata: Record<string, unknown>; error?: unknown };

async function sse(res: Response): Promise<Ev[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.trim() !== "")
    .map((b) => {
      expect(b.startsWith("data: ")).toBe(true);
      return JSON.parse(b.slice("data: ".length)) as Ev;
    });
}

/**
 * Every answer line after the first is a whole sentence of the source it cites, verbatim, cited `[n]` or `[n, ¶ p]`
 * (the judgment's own paragraph number); a "closest passages" line may stand before them when no sentence answers.
 */
async function expectGroundedAnswer(answer: string, sources: Source[]): Promise<string[]> {
  const lines = answer.split("\n").filter((l) => l.trim() !== "");
  expect(lines[0]).toMatch(/^(Extractive answer|Odpowiedź z cytatów)/);
  const sentences = lines.slice(1).filter((l) => !/^(No sentence of the retrieved|Żadne zdanie odnalezionych)/.test(l));
  expect(sentences.length).toBeGreaterThan(0);
  expect(sentences.length).toBeLessThanOrEqual(6);
  for (const line of sentences) {
    const m = /^(.*) \[(\d+)(?:, ¶ \d+)?\]$/.exec(line);
    expect(m?.[1], line).toMatch(/^["'“„(]?[\p{Lu}\p{N}].*[.!?…]["'”’)\]]*$/u);
    expect(m, line).not.toBeNull();
    const n = Number(m![2]);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(sources.length);
    expect(sources[n - 1].excerpt).toContain(m![1]);
  }
  // Each source is a real judgment, and its excerpt is text of that judgment.
  for (const s of sources) {
    const row = (await pool.query<{ full_text: string; case_number: string | null }>("select full_text, case_number from public.judgments where id = $1", [s.id])).rows[0];
    expect(row, s.id).toBeDefined();
    expect(row.case_number).toBe(s.case_number);
    expect(row.full_text.replace(/\s+/g, " ")).toContain(s.excerpt.replace(/\s+/g, " ").slice(0, 200));
  }
  return sentences;
}

async function eventsOf(userId: string, name: string, n: number): Promise<Array<{ properties: Record<string, unknown> }>> {
  const read = async () =>
    (await pool.query<{ properties: Record<string, unknown> }>("select properties from public.app_events where user_id = $1 and name = $2 order by created_at", [userId, name])).rows;
  for (let i = 0; i < 100; i++) {
    const rows = await read();
    if (rows.length >= n) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

describe("POST /api/chat (no model: extractive)", () => {
  it("needs a signed-in user", async () => {
    expect((await new Browser().post("/api/chat", { message: QUESTION })).status).toBe(401);
    expect((await new Browser().post("/api/qa", { question: QUESTION })).status).toBe(401);
    expect((await new Browser().get("/api/chat/threads")).status).toBe(401);
  });

  it("streams sources, tokens and done; the sentences come from the sources; the thread and events are stored", async () => {
    const { browser, user } = await signedInBrowser();
    const events = await sse(await browser.post("/api/chat", { message: QUESTION }));
    expect(events[0].type).toBe("sources");
    expect(events.at(-1)!.type).toBe("done");
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(["sources", "token", "done"]));
    const sources = (events[0] as Extract<Ev, { type: "sources" }>).sources;
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.length).toBeLessThanOrEqual(8);
    expect(new Set(sources.map((s) => s.id)).size).toBeLessThanOrEqual(5);
    expect(new Set(sources.map((s) => `${s.id}:${s.position}`)).size).toBe(sources.length);
    expect(sources.map((s) => s.id)).toContain(F.smith);
    const tokens = events.filter((e): e is Extract<Ev, { type: "token" }> => e.type === "token");
    expect(tokens.length).toBeGreaterThan(10);
    const answer = tokens.map((t) => t.content).join("");
    const sentences = await expectGroundedAnswer(answer, sources);
    expect(sentences.some((s) => MARKER.test(s))).toBe(true);

    const done = events.at(-1) as Extract<Ev, { type: "done" }>;
    expect(done.error).toBeUndefined();
    expect(done.metadata).toMatchObject({ mode: "extractive", model: null, tokens_used: 0 });
    expect(typeof done.metadata.retrieval_time_ms).toBe("number");
    const thread = (await pool.query("select user_id, title from public.chat_threads where id = $1", [done.thread_id])).rows[0];
    expect(thread).toEqual({ user_id: user.id, title: QUESTION });
    const msgs = (await pool.query("select id, role, content, sources from public.chat_messages where thread_id = $1 order by created_at", [done.thread_id])).rows;
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(msgs[0].content).toBe(QUESTION);
    expect(msgs[1]).toMatchObject({ id: done.message_id, content: answer, sources });

    const sent = await eventsOf(user.id, "chat_message_sent", 1);
    expect(sent.map((e) => e.properties)).toEqual([{ message_length: QUESTION.length }]);
    const received = await eventsOf(user.id, "chat_response_received", 1);
    expect(received).toHaveLength(1);
    expect(received[0].properties).toMatchObject({ sources_count: sources.length });
    expect(typeof received[0].properties.duration_ms).toBe("number");
  });

  it("non-streaming answers the reference shape; a follow-up in the thread uses the earlier turn", async () => {
    const { browser } = await signedInBrowser();
    const res = await browser.post("/api/chat", { message: QUESTION, stream: false });
    expect(res.status).toBe(200);
    const first = (await res.json()) as { response: string; sources: Source[]; metadata: Record<string, unknown>; thread_id: string };
    expect(Object.keys(first.metadata).sort()).toEqual(["generation_time_ms", "mode", "model", "retrieval_time_ms", "tokens_used"]);
    await expectGroundedAnswer(first.response, first.sources);
    // The follow-up names nothing of the first question; the earlier turn keeps retrieval on the stabbing.
    const follow = await browser.post("/api/chat", { message: "And what did the court decide?", thread_id: first.thread_id, stream: false });
    expect(follow.status).toBe(200);
    const second = (await follow.json()) as { sources: Source[]; thread_id: string };
    expect(second.thread_id).toBe(first.thread_id);
    expect(second.sources.map((s) => s.id)).toContain(F.smith);
    const thread = (await (await browser.get(`/api/chat/threads/${first.thread_id}`)).json()) as { messages: Array<{ role: string; sources: Source[] }> };
    expect(thread.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(thread.messages[1].sources).toEqual(first.sources);
  });

  it("each message retrieves for itself: a follow-up of its own gets its own sources; 'that judgment' is resolved and searched in", async () => {
    const { browser } = await signedInBrowser();
    type Answer = { response: string; sources: Source[]; thread_id: string; retrieval_query: string };
    const ask = async (body: Record<string, unknown>) => {
      const res = await browser.post("/api/chat", { ...body, stream: false });
      expect(res.status).toBe(200);
      return (await res.json()) as Answer;
    };
    const jurisdictions = async (ids: string[]) =>
      (await pool.query<{ jurisdiction: string }>("select distinct jurisdiction from public.judgments where id = any($1::uuid[]) order by 1", [ids])).rows.map((r) => r.jurisdiction);

    const first = await ask({ message: "What sentence do courts give for a robbery with a knife?" });
    expect(first.retrieval_query).toBe("What sentence do courts give for a robbery with a knife?");
    expect(first.sources.length).toBeGreaterThan(0);
    // The user trial's case: a Polish burglary question in the same thread.
    const polish = "Jaka kara za kradzież z włamaniem przy recydywie?";
    const second = await ask({ message: polish, thread_id: first.thread_id });
    expect(second.retrieval_query).toBe(polish);
    expect(second.sources.map((s) => `${s.id}:${s.position}`)).not.toEqual(first.sources.map((s) => `${s.id}:${s.position}`));
    expect(await jurisdictions(second.sources.map((s) => s.id))).toContain("PL");
    await expectGroundedAnswer(second.response, second.sources);
    // The same question in a new thread finds the same passages: the thread does not steer a question of its own.
    const alone = await ask({ message: polish });
    expect(alone.sources.map((s) => `${s.id}:${s.position}`)).toEqual(second.sources.map((s) => `${s.id}:${s.position}`));

    // "that judgment" is the previous answer's first source: named in the query, and the only judgment searched.
    const named = second.sources[0];
    const third = await ask({ message: "What did the court decide in that judgment?", thread_id: first.thread_id });
    expect(third.retrieval_query).toBe(`What did the court decide in ${named.case_number ?? named.title}?`);
    expect(third.sources.length).toBeGreaterThan(0);
    expect(new Set(third.sources.map((s) => s.id))).toEqual(new Set([named.id]));

    // The stored thread keeps each answer's own sources, and each question's search.
    const thread = (await (await browser.get(`/api/chat/threads/${first.thread_id}`)).json()) as {
      messages: Array<{ role: string; sources: Source[]; metadata: Record<string, unknown> }>;
    };
    const answers = thread.messages.filter((m) => m.role === "assistant");
    expect(answers.map((m) => m.sources)).toEqual([first.sources, second.sources, third.sources]);
    expect(answers.map((m) => m.metadata.retrieval_query)).toEqual([first.retrieval_query, second.retrieval_query, third.retrieval_query]);
  });

  it("a follow-up without filters carries the thread's jurisdiction", async () => {
    const { browser } = await signedInBrowser();
    const first = (await (await browser.post("/api/chat", { message: "robbery appeal sentence", jurisdiction: "PL", stream: false })).json()) as { thread_id: string };
    const follow = (await (await browser.post("/api/chat", { message: "appeal against the sentence for fraud", thread_id: first.thread_id, stream: false })).json()) as { sources: Source[] };
    expect(follow.sources.length).toBeGreaterThan(0);
    const js = (await pool.query<{ jurisdiction: string }>("select distinct jurisdiction from public.judgments where id = any($1::uuid[])", [follow.sources.map((s) => s.id)])).rows;
    expect(js.map((r) => r.jurisdiction)).toEqual(["PL"]);
  });

  it("filters restrict retrieval (jurisdiction, BaseSchemaFilters); bad input is a 4xx and stores nothing", async () => {
    const { browser, user } = await signedInBrowser();
    const pl = (await (await browser.post("/api/chat", { message: "robbery appeal sentence", jurisdiction: "PL", stream: false })).json()) as { sources: Source[] };
    expect(pl.sources.length).toBeGreaterThan(0);
    const js = (await pool.query<{ jurisdiction: string }>("select distinct jurisdiction from public.judgments where id = any($1::uuid[])", [pl.sources.map((s) => s.id)])).rows;
    expect(js.map((r) => r.jurisdiction)).toEqual(["PL"]);
    const dated = (await (await browser.post("/api/chat", { message: "appeal", filters: { decision_date: { from: "2010-01-01", to: "2014-12-31" } }, stream: false })).json()) as { sources: Source[] };
    // Something to check: the corpus has appeals decided in those years, so the filtered answer has sources, each a
    // stored judgment with a decision date in the range.
    expect(dated.sources.length).toBeGreaterThan(0);
    const dates = (await pool.query<{ d: string | null }>("select decision_date::text as d from public.judgments where id = any($1::uuid[])", [dated.sources.map((s) => s.id)])).rows;
    expect(dates).toHaveLength(new Set(dated.sources.map((s) => s.id)).size);
    for (const r of dates) expect(r.d !== null && r.d >= "2010-01-01" && r.d <= "2014-12-31", String(r.d)).toBe(true);

    const count = async () => Number((await pool.query("select count(*) from public.chat_threads where user_id = $1", [user.id])).rows[0].count);
    const before = await count();
    const bad = await browser.post("/api/chat", { message: "x", filters: { no_such_field: 1 } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { code: string } }).detail.code).toBe("FILTER_INVALID");
    expect((await browser.post("/api/chat", { message: "" })).status).toBe(422);
    expect((await browser.post("/api/chat", { message: "x".repeat(4001) })).status).toBe(422);
    expect((await browser.post("/api/chat", { message: "x", thread_id: "not-a-uuid" })).status).toBe(422);
    const missing = await browser.post("/api/chat", { message: "x", thread_id: "00000000-0000-4000-8000-0000000000ff" });
    expect(missing.status).toBe(404);
    expect(await count()).toBe(before);
  });
});

describe("threads", () => {
  it("lists, reads, renames and deletes the caller's threads; another user sees none of it", async () => {
    const a = await signedInBrowser();
    const b = await signedInBrowser();
    const made = (await (await a.browser.post("/api/chat", { message: QUESTION, stream: false })).json()) as { thread_id: string };
    const list = (await (await a.browser.get("/api/chat/threads")).json()) as { threads: Array<{ id: string; title: string; message_count: number }>; total: number };
    expect(list.total).toBe(1);
    expect(list.threads[0]).toMatchObject({ id: made.thread_id, title: QUESTION, message_count: 2 });
    const renamed = await a.browser.patch(`/api/chat/threads/${made.thread_id}`, { title: "Stabbing" });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { title: string }).title).toBe("Stabbing");
    expect((await a.browser.patch(`/api/chat/threads/${made.thread_id}`, { title: "" })).status).toBe(422);

    for (const res of [
      await b.browser.get(`/api/chat/threads/${made.thread_id}`),
      await b.browser.patch(`/api/chat/threads/${made.thread_id}`, { title: "mine" }),
      await b.browser.delete(`/api/chat/threads/${made.thread_id}`),
      await b.browser.post("/api/chat", { message: "hi", thread_id: made.thread_id }),
    ]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("CHAT_THREAD_NOT_FOUND");
    }
    expect(((await (await b.browser.get("/api/chat/threads")).json()) as { total: number }).total).toBe(0);
    expect((await pool.query("select title from public.chat_threads where id = $1", [made.thread_id])).rows[0].title).toBe("Stabbing");
    expect((await a.browser.get("/api/chat/threads/nope")).status).toBe(400);

    expect((await a.browser.delete(`/api/chat/threads/${made.thread_id}`)).status).toBe(204);
    expect((await a.browser.get(`/api/chat/threads/${made.thread_id}`)).status).toBe(404);
    expect(Number((await pool.query("select count(*) from public.chat_messages where thread_id = $1", [made.thread_id])).rows[0].count)).toBe(0);
  });
});

describe("POST /api/qa", () => {
  it("answers {answer, confidence, sources, mode} from the same retrieval, and stores no thread", async () => {
    const { browser, user } = await signedInBrowser();
    const res = await browser.post("/api/qa", { question: QUESTION });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; confidence: number; sources: Array<{ id: string; case_number: string | null; excerpt: string }>; mode: string };
    expect(body.mode).toBe("extractive");
    expect(body.confidence).toBeGreaterThan(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(Object.keys(body.sources[0]).sort()).toEqual(["case_number", "excerpt", "id"]);
    expect(body.sources.map((s) => s.id)).toContain(F.smith);
    expect(body.answer).toMatch(MARKER);
    expect(Number((await pool.query("select count(*) from public.chat_threads where user_id = $1", [user.id])).rows[0].count)).toBe(0);
  });
});
