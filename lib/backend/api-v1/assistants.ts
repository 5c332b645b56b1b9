/**
 * Chat and question answering of the reference API (`/api/v1/chat`, `/api/v1/qa`): the web's
 * assistants (lib/backend/assistants/chat.ts) — the same retrieval, the same model or extractive answer, the same
 * events — in the reference shapes. The reference API keeps no threads (a key is not a signed-in session; threads are
 * owner-only rows of the web app), so each call answers one message and nothing is stored.
 */
import type { z } from "zod";
import type { V1AssistantFiltersT, V1ChatBody, V1QaBody } from "@/lib/schema/requests/api-v1";
import type { BaseSchemaFilters } from "@/lib/schema/filters";
import { answerEvents, answerTokens, eventStreamResponse, modelOf, questionAnswer, type ChatDeps, type ChatEvent, type ChatMetadata } from "../assistants/chat";
import { retrievePassages, type Jurisdiction, type Source } from "../assistants/retrieval";
import { ApiError } from "@/lib/errors";

type ModelDeps = Pick<ChatDeps, "model" | "modelName">;

/** A source as the reference chat answers it. */
export interface V1ChatSource {
  id: string;
  case_number: string | null;
  title: string | null;
  relevance: number;
}

export interface V1ChatResponse {
  response: string;
  sources: V1ChatSource[];
  metadata: ChatMetadata;
}

export type V1ChatEvent =
  | { type: "token"; content: string }
  | { type: "sources"; sources: V1ChatSource[] }
  | { type: "done"; thread_id: null; message_id: null; metadata: ChatMetadata; error?: { code: string; message: string } };

const toV1Source = (s: Source): V1ChatSource => ({ id: s.id, case_number: s.case_number, title: s.title, relevance: s.relevance });

/** The reference filters as the retrieval takes them: jurisdiction, a decision_date range; keywords join the query. */
export function v1Retrieval(query: string, f: V1AssistantFiltersT | undefined): { query: string; filters?: BaseSchemaFilters; jurisdiction?: Jurisdiction } {
  const range = { ...(f?.decision_date_from ? { from: f.decision_date_from } : {}), ...(f?.decision_date_to ? { to: f.decision_date_to } : {}) };
  return {
    query: [query, ...(f?.keywords ?? [])].join(" ").trim(),
    ...(Object.keys(range).length ? { filters: { decision_date: range } } : {}),
    ...(f?.jurisdiction ? { jurisdiction: f.jurisdiction } : {}),
  };
}

async function* referenceEvents(events: AsyncGenerator<ChatEvent>): AsyncGenerator<V1ChatEvent> {
  for await (const ev of events) {
    if (ev.type === "sources") yield { type: "sources", sources: ev.sources.map(toV1Source) };
    else if (ev.type === "done") yield { type: "done", thread_id: null, message_id: null, metadata: ev.metadata, ...(ev.error ? { error: ev.error } : {}) };
    else yield ev;
  }
}

/** POST /api/v1/chat: an SSE stream (stream: true) or `{response, sources, metadata}`. */
export async function chatV1(body: z.infer<typeof V1ChatBody>, deps: ModelDeps = {}, signal?: AbortSignal): Promise<Response | V1ChatResponse> {
  const r = v1Retrieval(body.message, body.filters);
  const retrieval = await retrievePassages(r);
  const { model, name } = modelOf(deps);
  const metadata: ChatMetadata = { model: name, mode: model ? "llm" : "extractive", tokens_used: 0, retrieval_time_ms: retrieval.retrieval_time_ms, generation_time_ms: 0 };
  const abort = new AbortController();
  const stop = signal ? AbortSignal.any([signal, abort.signal]) : abort.signal;
  const prepared = { question: body.message, history: [], sources: retrieval.sources };
  // Nothing is stored: the answer's "finish" only reports no message id.
  const events = referenceEvents(
    answerEvents({ threadId: "", sources: retrieval.sources, metadata, tokens: answerTokens(prepared, model, stop), signal: stop }, async () => null),
  );
  if (body.stream) return eventStreamResponse(events, abort);
  let response = "";
  let sources: V1ChatSource[] = [];
  for await (const ev of events) {
    if (ev.type === "token") response += ev.content;
    else if (ev.type === "sources") sources = ev.sources;
    else if (ev.error) throw new ApiError("CHAT_GENERATION_FAILED");
    else return { response, sources, metadata: ev.metadata };
  }
  throw new ApiError("CHAT_GENERATION_FAILED");
}

/** POST /api/v1/qa: `{answer, confidence, sources[{id, case_number, excerpt}], mode}`. */
export async function qaV1(body: z.infer<typeof V1QaBody>, deps: ModelDeps = {}, signal?: AbortSignal) {
  const r = v1Retrieval(body.question, body.context_filters);
  return questionAnswer({ question: body.question, context_filters: r.filters ?? {}, jurisdiction: r.jurisdiction }, deps, signal, r.query);
}
