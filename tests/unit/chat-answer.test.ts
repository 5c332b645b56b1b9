import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { answerConfidence, answerEvents, answerTokens, type ChatEvent, type ChatMetadata } from "@/lib/backend/assistants/chat";
import { EXTRACTIVE_PREAMBLE, extractiveAnswer, rankSentences, splitSentences, streamTokens } from "@/lib/backend/assistants/extractive";
import type { Source } from "@/lib/backend/assistants/retrieval";
import { CHAT_SYSTEM_PROMPT, chatUserPrompt } from "@/lib/llm/prompts/chat";

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 30, text: 30, reasoning: undefined },
};
const finish: LanguageModelV3StreamPart = { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } };
const deltas = (texts: string[]): LanguageModelV3StreamPart[] => [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  ...texts.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
];

function streamingModel(parts: LanguageModelV3StreamPart[]) {
  return new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks: parts }) }) });
}

/** A model whose HTTP stream breaks after a few deltas (the connection reset mid-answer). */
function cutModel(texts: string[]) {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: (() => {
        const parts = deltas(texts);
        let i = 0;
        // One part per pull, then the error: an errored stream drops what is still queued.
        return new ReadableStream<LanguageModelV3StreamPart>({
          pull(c) {
            if (i < parts.length) c.enqueue(parts[i++]);
            else c.error(new Error("socket hang up"));
          },
        });
      })(),
    }),
  });
}

const source = (n: number, excerpt: string): Source => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  case_number: `II AKa ${n}/21`,
  title: `Judgment ${n}`,
  relevance: 1 / n,
  excerpt,
  position: n,
});

const SOURCES = [
  source(1, "the appeal was heard in March. The court reduced the sentence for robbery to four years because the offender confessed. Costs were awarded against the appellant"),
  source(2, "The defendant was convicted of burglary of a dwelling at night. The Court of Appeal dismissed the appeal against conviction. The sentence of"),
];

async function collect(gen: AsyncGenerator<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

const meta = (): ChatMetadata => ({ model: "mock", mode: "llm", tokens_used: 0, retrieval_time_ms: 3, generation_time_ms: 0 });

describe("extractive answer", () => {
  it("splits passages into verbatim sentences and marks the cut ends as fragments", () => {
    const s = splitSentences(SOURCES[0].excerpt);
    expect(s.map((x) => x.text)).toEqual([
      "the appeal was heard in March.",
      "The court reduced the sentence for robbery to four years because the offender confessed.",
      "Costs were awarded against the appellant",
    ]);
    expect(s.map((x) => x.complete)).toEqual([false, true, false]);
    for (const x of s) expect(SOURCES[0].excerpt).toContain(x.text);
  });

  it("ranks the sentences that share the question's words first, cited by source number", () => {
    const r = rankSentences("Why was the robbery sentence reduced?", SOURCES, 6);
    expect(r[0]).toMatchObject({ text: "The court reduced the sentence for robbery to four years because the offender confessed.", source: 1 });
    expect(r.every((x) => x.score > 0)).toBe(true);
    expect(r.find((x) => x.text.includes("burglary"))).toBeUndefined();
  });

  it("folds case and diacritics like search (Polish question, Polish passage)", () => {
    // The passage opens with the tail of a sentence cut by the chunking: that piece is never a candidate.
    const pl = [source(1, "uzasadnienia wyroku sądu pierwszej instancji. Sąd Apelacyjny obniżył karę za ZABÓJSTWO do 15 lat pozbawienia wolności. Koszty zasądzono od oskarżonego.")];
    const r = rankSentences("zabojstwo kara", pl, 6);
    expect(r[0].text).toBe("Sąd Apelacyjny obniżył karę za ZABÓJSTWO do 15 lat pozbawienia wolności.");
  });

  it("begins with the extractive line, has at most the limit of sentences, each followed by its citation", () => {
    const { text, sentences } = extractiveAnswer("appeal sentence conviction court", SOURCES, 2);
    const lines = text.split("\n");
    expect(lines[0]).toBe(EXTRACTIVE_PREAMBLE);
    const body = lines.slice(2);
    expect(body).toHaveLength(2);
    body.forEach((line, i) => expect(line).toBe(`${sentences[i].text} [${sentences[i].source}]`));
  });

  it("without sources says nothing matched, and stream tokens join back to the text", () => {
    const { text } = extractiveAnswer("anything", [], 6);
    expect(text.startsWith(EXTRACTIVE_PREAMBLE)).toBe(true);
    expect(streamTokens(text).join("")).toBe(text);
    expect(streamTokens(text).length).toBeGreaterThan(10);
  });
});

describe("model answer (mock model)", () => {
  it("streams the model's deltas as tokens, sources first, done with the stored message and the tokens used", async () => {
    const model = streamingModel([...deltas(["The sentence ", "was reduced ", "[1]."]), { type: "text-end", id: "t" }, finish]);
    const stored: { text: string; meta: ChatMetadata }[] = [];
    const events = await collect(
      answerEvents(
        { threadId: "t1", sources: SOURCES, metadata: meta(), tokens: answerTokens({ question: "Why reduced?", history: [], sources: SOURCES }, model) },
        async (text, m) => {
          stored.push({ text, meta: { ...m } });
          return "m1";
        },
      ),
    );
    expect(events[0]).toEqual({ type: "sources", sources: SOURCES });
    expect(events.filter((e) => e.type === "token").map((e) => (e.type === "token" ? e.content : ""))).toEqual(["The sentence ", "was reduced ", "[1]."]);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "done", thread_id: "t1", message_id: "m1", metadata: { mode: "llm", tokens_used: 150 } });
    expect(done && "error" in done && done.error).toBeFalsy();
    expect(stored).toEqual([{ text: "The sentence was reduced [1].", meta: expect.objectContaining({ tokens_used: 150 }) }]);
  });

  it("the model sees the system prompt, the earlier turns and only the numbered retrieved passages", async () => {
    const model = streamingModel([...deltas(["ok"]), finish]);
    const history = [
      { id: "a", role: "user" as const, content: "first question", sources: [], metadata: {}, created_at: "" },
      { id: "b", role: "assistant" as const, content: "first answer [1]", sources: [], metadata: {}, created_at: "" },
    ];
    for await (const _ of answerTokens({ question: "and then?", history, sources: SOURCES }, model)) void _;
    const prompt = model.doStreamCalls[0].prompt;
    expect(prompt[0]).toEqual({ role: "system", content: CHAT_SYSTEM_PROMPT });
    expect(CHAT_SYSTEM_PROMPT).toMatch(/no claim that no\s+passage supports/i);
    expect(prompt.slice(1, 3).map((m) => m.role)).toEqual(["user", "assistant"]);
    const last = prompt[3];
    expect(last.role).toBe("user");
    const text = last.role === "user" ? last.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
    expect(text).toBe(chatUserPrompt("and then?", SOURCES));
    expect(text).toContain(`[1] II AKa 1/21 — Judgment 1\n${SOURCES[0].excerpt}`);
    expect(text).toContain(`[2] II AKa 2/21`);
  });

  it("a stream cut mid-way: the tokens so far, then done carrying an error, and nothing stored", async () => {
    const stored: string[] = [];
    const events = await collect(
      answerEvents(
        { threadId: "t1", sources: SOURCES, metadata: meta(), tokens: answerTokens({ question: "q", history: [], sources: SOURCES }, cutModel(["Half ", "an answer"])) },
        async (text) => {
          stored.push(text);
          return "m1";
        },
      ),
    );
    expect(events.filter((e) => e.type === "token").map((e) => (e.type === "token" ? e.content : ""))).toEqual(["Half ", "an answer"]);
    expect(events.at(-1)).toMatchObject({ type: "done", message_id: null, error: { code: "CHAT_GENERATION_FAILED" } });
    expect(stored).toEqual([]);
  });

  it("a stream that closes cleanly but without a finish part is cut: done carries an error and nothing is stored", async () => {
    const stored: string[] = [];
    // The deltas and text-end arrive, then the provider's stream just closes (a proxy that hung up politely).
    const model = streamingModel([...deltas(["Half ", "an answer"]), { type: "text-end", id: "t" }]);
    const events = await collect(
      answerEvents({ threadId: "t1", sources: SOURCES, metadata: meta(), tokens: answerTokens({ question: "q", history: [], sources: SOURCES }, model) }, async (text) => {
        stored.push(text);
        return "m1";
      }),
    );
    expect(events[0]).toEqual({ type: "sources", sources: SOURCES });
    expect(events.filter((e) => e.type === "token").map((e) => (e.type === "token" ? e.content : ""))).toEqual(["Half ", "an answer"]);
    expect(events.at(-1)).toMatchObject({ type: "done", thread_id: "t1", message_id: null, error: { code: "CHAT_GENERATION_FAILED" } });
    expect(events.filter((e) => e.type === "done")).toHaveLength(1);
    expect(stored).toEqual([]);
  });

  it("an error part from the provider ends the stream the same way", async () => {
    const model = streamingModel([...deltas(["Par"]), { type: "error", error: new Error("429 Too Many Requests") }]);
    const events = await collect(
      answerEvents({ threadId: "t1", sources: [], metadata: meta(), tokens: answerTokens({ question: "q", history: [], sources: [] }, model) }, async () => "m1"),
    );
    expect(events.at(-1)).toMatchObject({ type: "done", message_id: null, error: { code: "CHAT_GENERATION_FAILED" } });
  });

  it("extractive tokens (no model) go through the same events and store the whole text", async () => {
    const stored: string[] = [];
    const events = await collect(
      answerEvents(
        { threadId: "t1", sources: SOURCES, metadata: { ...meta(), model: null, mode: "extractive" }, tokens: answerTokens({ question: "robbery sentence reduced", history: [], sources: SOURCES }, null) },
        async (text) => {
          stored.push(text);
          return "m2";
        },
      ),
    );
    const text = events.map((e) => (e.type === "token" ? e.content : "")).join("");
    expect(stored).toEqual([text]);
    expect(text).toContain("The court reduced the sentence for robbery to four years because the offender confessed. [1]");
    expect(events.at(-1)).toMatchObject({ type: "done", message_id: "m2", metadata: { mode: "extractive", tokens_used: 0 } });
  });
});

describe("qa confidence", () => {
  it("is the share of the question's words the evidence covers, scaled by the best relevance; 0 without sources", () => {
    expect(answerConfidence("robbery sentence", "the sentence for robbery", SOURCES)).toBe(1);
    expect(answerConfidence("robbery murder", "the sentence for robbery", SOURCES)).toBe(0.5);
    expect(answerConfidence("robbery", "robbery", [])).toBe(0);
  });
});
