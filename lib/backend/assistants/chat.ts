/**
 * Chat with retrieval and the reference question answering. One answer generator serves the stream
 * (SSE: `token` {content}, `sources` {sources}, `done` {thread_id, message_id, metadata}) and the non-streaming
 * shape. The answer comes from a model when one is configured (mode "llm": it sees only the retrieved passages and
 * cites them as [n]), else from the passages themselves (mode "extractive", no text generated).
 */
import { streamText, type ModelMessage, type LanguageModel } from "ai";
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { languageModel } from "@/lib/llm/provider";
import { llmCallSettings, tokensUsed, type AssistantMode } from "@/lib/llm/call";
import { CHAT_SYSTEM_PROMPT, chatUserPrompt } from "@/lib/llm/prompts/chat";
import { emitServerEvent } from "@/lib/backend/events";
import { logger } from "@/lib/logger";
import { uuidSchema } from "@/lib/schema/uuid";
import { filtersField } from "@/lib/schema/filters";
import type { DbClient } from "@/lib/supabase/db-client";
import { words } from "@/lib/search/text/tokenize";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { extractiveAnswer, streamTokens } from "./extractive";
import { retrievalFilter, retrievePassages, type Source } from "./retrieval";
import { followUpRefs, rewriteFollowUp, type ThreadContext } from "./followup";
import { getSearchEngine } from "@/lib/search/engine";
import { mapSearchErrors } from "../search";
import { addMessage, createThread, getThread, threadTitle, type ChatMessage } from "./threads";

const JURISDICTION = z.enum(["PL", "UK"]);
const Jurisdiction = z.union([JURISDICTION, z.array(JURISDICTION).min(1).max(2)]);
/** A BaseSchemaFilters object, typed here (422 FILTER_INVALID naming the key; collection_ids refused, D-10). */
const Filters = filtersField({ collectionIds: "refuse" });

export const ChatBody = z.object({
  message: safeText().trim().min(1).max(4000),
  thread_id: uuidSchema.optional(),
  filters: Filters,
  jurisdiction: Jurisdiction.optional(),
  stream: z.boolean().default(true),
});
export type ChatRequest = z.infer<typeof ChatBody>;

export const QaBody = z.object({
  question: safeText().trim().min(1).max(4000),
  context_filters: Filters,
  jurisdiction: Jurisdiction.optional(),
});

export interface ChatMetadata {
  model: string | null;
  mode: AssistantMode;
  tokens_used: number;
  retrieval_time_ms: number;
  generation_time_ms: number;
}

export type ChatEvent =
  | { type: "token"; content: string }
  | { type: "sources"; sources: Source[]; retrieval_query?: string }
  | { type: "done"; thread_id: string; message_id: string | null; metadata: ChatMetadata; error?: { code: string; message: string } };

/** Everything an answer needs, resolved before the first byte is sent (so bad input is a plain 4xx). */
export interface PreparedChat {
  threadId: string;
  question: string;
  /** What was searched for: the question, or the follow-up rewritten against the thread (shown as "searched for"). */
  retrievalQuery: string;
  /** What the extractive answer ranks its sentences against (lib/backend/assistants/followup.ts rankQuery). */
  rankQuery: string;
  /** Earlier turns, oldest first (the model's context). */
  history: ChatMessage[];
  sources: Source[];
  retrievalMs: number;
  startedAt: number;
}

export interface ChatDeps {
  db: DbClient;
  serviceDb: () => DbClient;
  userId: string;
  /** The model, or null for extractive mode; tests pass a mock model. */
  model?: LanguageModel | null;
  modelName?: string | null;
}

export function modelOf(deps: Pick<ChatDeps, "model" | "modelName">): { model: LanguageModel | null; name: string | null } {
  if (deps.model !== undefined) return { model: deps.model, name: deps.modelName ?? (deps.model ? "mock" : null) };
  const model = languageModel();
  return { model, name: model ? config().LLM_MODEL : null };
}

/** The last message of a role in the thread, newest first. */
const lastOf = (history: ChatMessage[], role: ChatMessage["role"]) => [...history].reverse().find((m) => m.role === role);

/**
 * What a follow-up is rewritten against: the previous turn's retrieval query (stored with its question) and the
 * judgment of the previous answer's first source; its court is looked up only when the message points at it.
 */
async function threadContext(message: string, history: ChatMessage[]): Promise<ThreadContext> {
  const prevUser = lastOf(history, "user");
  const stored = prevUser?.metadata.retrieval_query;
  const previousQuery = typeof stored === "string" && stored ? stored : (prevUser?.content ?? null);
  const first = lastOf(history, "assistant")?.sources[0];
  if (!first || typeof first.id !== "string") return { previousQuery, previousJudgment: null };
  const label = [first.case_number, first.title].find((x): x is string => typeof x === "string" && x.trim() !== "") ?? first.id;
  let court: string | null = null;
  if (followUpRefs(message).court) {
    const [doc] = await mapSearchErrors(() => getSearchEngine().getDocuments([first.id as string], ["id", "court_name"]));
    court = typeof doc?.court_name === "string" ? doc.court_name : null;
  }
  return { previousQuery, previousJudgment: { id: first.id, label, court } };
}

/** The filters a thread's first messages set, carried by a follow-up that brings none of its own. */
function carriedFilters(req: ChatRequest, history: ChatMessage[]): Pick<ChatRequest, "filters" | "jurisdiction"> {
  const prev = lastOf(history, "user")?.metadata ?? {};
  const filters = req.filters ?? (prev.filters && typeof prev.filters === "object" ? (prev.filters as ChatRequest["filters"]) : undefined);
  const j = req.jurisdiction ?? (prev.jurisdiction as ChatRequest["jurisdiction"] | undefined);
  return { filters, jurisdiction: j };
}

/**
 * Validate the filters, find the thread (or start one), retrieve, store the question and record chat_message_sent.
 * A thread that is not the caller's is 404 CHAT_THREAD_NOT_FOUND; bad filters are 422 and nothing is stored.
 */
export async function prepareChat(req: ChatRequest, deps: ChatDeps): Promise<PreparedChat> {
  const startedAt = performance.now();
  // Built once, before anything is read or stored: a key the index cannot filter on is a 422 here, not mid-answer.
  retrievalFilter(req.filters, req.jurisdiction);
  let history: ChatMessage[] = [];
  if (req.thread_id) {
    const thread = await getThread(deps.db, req.thread_id.toLowerCase());
    history = thread.messages.slice(-config().CHAT_HISTORY_MAX_MESSAGES);
  }
  // Every message retrieves for itself: a follow-up is rewritten against the thread, then searched anew.
  const carried = carriedFilters(req, history);
  const followUp = rewriteFollowUp(req.message, await threadContext(req.message, history));
  const retrieval = await retrievePassages({
    query: followUp.query,
    filter: retrievalFilter(carried.filters, carried.jurisdiction),
    ...(followUp.judgmentId ? { judgmentIds: [followUp.judgmentId] } : {}),
    ...(followUp.court ? { court: followUp.court } : {}),
  });
  const threadId = req.thread_id?.toLowerCase() ?? (await createThread(deps.db, threadTitle(req.message)));
  const asked = { retrieval_query: followUp.query, ...(carried.filters ? { filters: carried.filters } : {}), ...(carried.jurisdiction ? { jurisdiction: carried.jurisdiction } : {}) };
  await addMessage(deps.db, { threadId, role: "user", content: req.message, metadata: asked });
  await emitServerEvent({ name: "chat_message_sent", userId: deps.userId, properties: { message_length: req.message.length }, db: deps.serviceDb() });
  return {
    threadId,
    question: req.message,
    retrievalQuery: followUp.query,
    rankQuery: followUp.rankQuery,
    history,
    sources: retrieval.sources,
    retrievalMs: retrieval.retrieval_time_ms,
    startedAt,
  };
}

/**
 * The answer's text as it is produced: one string per stream token. Extractive: the ranked sentences, word by word.
 * Model: the model's text deltas; a stream that fails or is cut part-way throws. Returns the tokens the model used.
 */
export async function* answerTokens(
  p: Pick<PreparedChat, "question" | "history" | "sources"> & { rankQuery?: string },
  model: LanguageModel | null,
  signal?: AbortSignal,
): AsyncGenerator<string, number> {
  if (!model) {
    // A follow-up that carried the thread's topic is ranked with the carried words too.
    const { text } = extractiveAnswer(p.rankQuery ?? p.question, p.sources, config().CHAT_EXTRACTIVE_MAX_SENTENCES);
    for (const token of streamTokens(text)) yield token;
    return 0;
  }
  const history: ModelMessage[] = p.history.map((m) => ({ role: m.role, content: m.content }));
  const result = streamText({
    model,
    system: CHAT_SYSTEM_PROMPT,
    messages: [...history, { role: "user", content: chatUserPrompt(p.question, p.sources) }],
    ...llmCallSettings({ signal, functionId: "chat" }),
  });
  let used = 0;
  let finished = false;
  for await (const part of result.fullStream) {
    if (part.type === "text-delta" && part.text) yield part.text;
    else if (part.type === "error") throw part.error instanceof Error ? part.error : new Error(String(part.error));
    else if (part.type === "abort") throw new Error("The model call was aborted (time budget or stop).");
    else if (part.type === "finish") {
      // The SDK sends a finish part of its own when the provider's stream closes without one: it then carries
      // finishReason "other" and no raw reason from the provider. That is a cut stream, not an ending.
      finished = part.rawFinishReason !== undefined || part.finishReason !== "other";
      used = tokensUsed(part.totalUsage);
    }
  }
  // A stream that ends without the provider's finish was cut (a proxy or server that hung up): not a whole answer.
  if (!finished) throw new Error("The model stream ended before it finished.");
  return used;
}

/**
 * The events of one answer: `sources`, then `token`s, then `done` once `finish` has stored the answer (it returns
 * the message id). A failure part-way ends with a `done` carrying `error`, and `finish` is not called.
 */
export async function* answerEvents(
  o: { threadId: string; sources: Source[]; metadata: ChatMetadata; tokens: AsyncGenerator<string, number>; signal?: AbortSignal; retrievalQuery?: string },
  finish: (text: string, metadata: ChatMetadata) => Promise<string | null>,
): AsyncGenerator<ChatEvent> {
  const { metadata } = o;
  const t0 = performance.now();
  yield { type: "sources", sources: o.sources, ...(o.retrievalQuery !== undefined ? { retrieval_query: o.retrievalQuery } : {}) };
  let text = "";
  try {
    for (let next = await o.tokens.next(); ; next = await o.tokens.next()) {
      if (o.signal?.aborted) return;
      if (next.done) {
        metadata.tokens_used = next.value;
        break;
      }
      text += next.value;
      yield { type: "token", content: next.value };
    }
    metadata.generation_time_ms = Math.round(performance.now() - t0);
    const messageId = await finish(text, metadata);
    yield { type: "done", thread_id: o.threadId, message_id: messageId, metadata };
  } catch (e) {
    if (o.signal?.aborted) return;
    // The cause stays in the log (never the question's text); the client gets the catalogue's message.
    logger.error({ err: e instanceof Error ? e.message : String(e), mode: metadata.mode }, "chat answer failed");
    metadata.generation_time_ms = Math.round(performance.now() - t0);
    const err = new ApiError("CHAT_GENERATION_FAILED");
    yield { type: "done", thread_id: o.threadId, message_id: null, metadata, error: { code: err.code, message: err.message } };
  }
}

/** The events of a prepared chat: the answer is stored in the thread and chat_response_received recorded. */
export function chatEvents(p: PreparedChat, deps: ChatDeps, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
  const { model, name } = modelOf(deps);
  const metadata: ChatMetadata = { model: name, mode: model ? "llm" : "extractive", tokens_used: 0, retrieval_time_ms: p.retrievalMs, generation_time_ms: 0 };
  const o = { threadId: p.threadId, sources: p.sources, metadata, tokens: answerTokens(p, model, signal), signal, retrievalQuery: p.retrievalQuery };
  return answerEvents(o, async (text, meta) => {
    const stored = { ...meta, retrieval_query: p.retrievalQuery };
    const messageId = await addMessage(deps.db, { threadId: p.threadId, role: "assistant", content: text, sources: p.sources, metadata: stored });
    await emitServerEvent({
      name: "chat_response_received",
      userId: deps.userId,
      properties: { duration_ms: Math.round(performance.now() - p.startedAt), sources_count: p.sources.length },
      db: deps.serviceDb(),
    });
    return messageId;
  });
}

/** An SSE response of the events; a client that goes away (the stop button) aborts the generation. */
export function chatEventStream(p: PreparedChat, deps: ChatDeps): Response {
  const abort = new AbortController();
  return eventStreamResponse(chatEvents(p, deps, abort.signal), abort);
}

/** `data: {json}` blocks of the events, one per pull; a cancelled response aborts `abort` and closes the events. */
export function eventStreamResponse(events: AsyncGenerator<object>, abort: AbortController): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await events.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      abort.abort();
      await events.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}

/** The non-streaming answer: the same events, collected. A failure is 502 CHAT_GENERATION_FAILED. */
export async function chatAnswer(p: PreparedChat, deps: ChatDeps) {
  let response = "";
  let sources: Source[] = [];
  for await (const ev of chatEvents(p, deps)) {
    if (ev.type === "token") response += ev.content;
    else if (ev.type === "sources") sources = ev.sources;
    else {
      if (ev.error) throw new ApiError("CHAT_GENERATION_FAILED");
      return { response, sources, retrieval_query: p.retrievalQuery, metadata: ev.metadata, thread_id: ev.thread_id, message_id: ev.message_id };
    }
  }
  throw new ApiError("CHAT_GENERATION_FAILED");
}

const terms = (s: string) => new Set(words(s).filter((w) => !STOPWORDS.has(w) && w.length > 1));

/**
 * How much of the question the answer's evidence covers: the share of the question's words (search tokenizer, stop
 * words out) found in the cited text, scaled by the best passage's relevance. 0 without sources. A heuristic, labelled
 * as such in docs/assistants.md, not a calibrated probability.
 */
export function answerConfidence(question: string, evidence: string, sources: Source[]): number {
  if (sources.length === 0) return 0;
  const q = terms(question);
  if (q.size === 0) return 0;
  const e = terms(evidence);
  let hit = 0;
  for (const t of q) if (e.has(t)) hit++;
  return Number(((hit / q.size) * Math.max(...sources.map((s) => s.relevance))).toFixed(2));
}

/**
 * POST /api/qa (and /api/v1/qa): the reference question-answering shape over the same retrieval; nothing is stored.
 * `retrievalQuery` replaces the question as the retrieval's query (the reference API adds its keywords to it).
 */
export async function questionAnswer(
  body: z.infer<typeof QaBody>,
  deps: Pick<ChatDeps, "model" | "modelName">,
  signal?: AbortSignal,
  retrievalQuery?: string,
) {
  const { sources } = await retrievePassages({ query: retrievalQuery ?? body.question, filters: body.context_filters, jurisdiction: body.jurisdiction });
  const { model } = modelOf(deps);
  const out = (mode: AssistantMode, answer: string, evidence: string) => ({
    answer,
    confidence: answerConfidence(body.question, evidence, sources),
    sources: sources.map((s) => ({ id: s.id, case_number: s.case_number, excerpt: s.excerpt })),
    mode,
  });
  if (!model) {
    const ex = extractiveAnswer(body.question, sources, config().CHAT_EXTRACTIVE_MAX_SENTENCES);
    return out("extractive", ex.text, ex.sentences.map((s) => s.text).join(" "));
  }
  try {
    let text = "";
    for await (const token of answerTokens({ question: body.question, history: [], sources }, model, signal)) text += token;
    return out("llm", text, sources.map((s) => s.excerpt).join(" "));
  } catch (e) {
    logger.error({ err: e instanceof Error ? e.message : String(e) }, "qa answer failed");
    throw new ApiError("CHAT_GENERATION_FAILED");
  }
}
