/**
 * Document helpers: POST /api/documents/summarize, POST /api/documents/key-points and
 * GET /api/documents/{id}/versions.
 *
 * Without a model (mode "extractive") summaries and key points are sentences of the judgment chosen by TextRank
 * (lib/analysis/textrank.ts): verbatim, in document order, deterministic. With a model (mode "llm") they are written
 * by it from the judgment's text (abstractive). Versions come from the judgment_versions trigger (ruling P-45).
 */
import { generateObject, generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { topSentences } from "@/lib/analysis/textrank";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { llmCallSettings, tokensUsed, type AssistantMode } from "@/lib/llm/call";
import type { SummarizeRequest, SummaryLength } from "@/lib/schema/requests/assistant-tools";
import { isUuid } from "@/lib/schema/uuid";
import type { Identity } from "../identity";
import { modelCallError, modelName, NO_MODEL_MODE, pickModel, readJudgment, readJudgments, textForModel, type JudgmentForTools } from "./tools-common";

/** Sentences (no model) and a word budget (model) per summary length. */
export const SUMMARY_SIZES: Readonly<Record<SummaryLength, { sentences: number; words: number }>> = {
  short: { sentences: 3, words: 80 },
  medium: { sentences: 6, words: 160 },
  long: { sentences: 10, words: 300 },
};
/** Key points returned. */
export const KEY_POINT_COUNT = 7;

export interface ToolDeps {
  /** A model to use instead of the configured one (tests: a mock); null forces the no-model mode. */
  model?: LanguageModel | null;
  signal?: AbortSignal;
}

export interface DocumentSummary {
  document_id: string;
  case_number: string | null;
  title: string | null;
  summary: string;
  /** No-model mode: the chosen sentences with their offsets in the full text (so the page can point at them). */
  sentences?: { text: string; start: number }[];
}

export interface SummarizeResponse {
  /** The summary of the one document, or the documents' summaries one paragraph each. */
  summary: string;
  summaries: DocumentSummary[];
  length: SummaryLength;
  mode: AssistantMode;
  model: string | null;
  tokens_used: number;
}

export interface KeyPointsResponse {
  document_id: string;
  key_points: string[];
  mode: AssistantMode;
  model: string | null;
  tokens_used: number;
}

const SUMMARY_SYSTEM = [
  "You summarise court judgments (Polish and England & Wales criminal appeals) for lawyers.",
  "Use only the judgment's text. Say what was appealed, what the court decided and why. No headings, no bullet points.",
  "Write in the language of the judgment.",
].join("\n");

export function extractiveSummary(doc: JudgmentForTools, length: SummaryLength): DocumentSummary {
  const chosen = topSentences(doc.full_text, SUMMARY_SIZES[length].sentences);
  return {
    document_id: doc.id,
    case_number: doc.case_number,
    title: doc.title,
    summary: chosen.map((s) => s.text.replace(/\s+/g, " ")).join(" "),
    sentences: chosen.map((s) => ({ text: s.text, start: s.start })),
  };
}

/** One judgment summarised by the model (exported for the mock-model tests). */
export async function modelSummary(doc: JudgmentForTools, length: SummaryLength, model: LanguageModel, deps: ToolDeps) {
  try {
    const r = await generateText({
      model,
      system: SUMMARY_SYSTEM,
      prompt: `Summarise this judgment in at most ${SUMMARY_SIZES[length].words} words.\n\n${textForModel(doc.full_text)}`,
      ...llmCallSettings({ signal: deps.signal, functionId: "summarize" }),
    });
    const text = r.text.trim();
    if (!text) throw new ApiError("ASSISTANT_OUTPUT_INVALID", "The language model answered with an empty summary.");
    return { summary: { document_id: doc.id, case_number: doc.case_number, title: doc.title, summary: text }, tokens: tokensUsed(r.usage) };
  } catch (e) {
    throw modelCallError(e, "ASSISTANT_OUTPUT_INVALID");
  }
}

export async function summarizeDocuments(body: SummarizeRequest, identity: Identity, deps: ToolDeps = {}): Promise<SummarizeResponse> {
  const ids = body.document_ids ?? (body.document_id ? [body.document_id] : []);
  const docs = await readJudgments(ids, identity);
  const model = pickModel(deps.model);
  let summaries: DocumentSummary[];
  let tokens = 0;
  if (model) {
    const results = await Promise.all(docs.map((d) => modelSummary(d, body.length, model, deps)));
    summaries = results.map((r) => r.summary);
    tokens = results.reduce((a, r) => a + r.tokens, 0);
  } else {
    summaries = docs.map((d) => extractiveSummary(d, body.length));
  }
  const summary =
    summaries.length === 1 ? summaries[0].summary : summaries.map((s) => `${s.case_number ?? s.title ?? s.document_id}: ${s.summary}`).join("\n\n");
  return {
    summary,
    summaries,
    length: body.length,
    mode: model ? "llm" : NO_MODEL_MODE.summary,
    model: model ? modelName(model) : null,
    tokens_used: tokens,
  };
}

const keyPointsOutput = z.object({ key_points: z.array(z.string().trim().min(1).max(600)).min(1).max(12) });

export async function documentKeyPoints(body: { document_id: string }, identity: Identity, deps: ToolDeps = {}): Promise<KeyPointsResponse> {
  const doc = await readJudgment(body.document_id, identity);
  const model = pickModel(deps.model);
  if (!model) {
    return {
      document_id: doc.id,
      // Verbatim sentences of the judgment (tests check each is a substring of the full text).
      key_points: topSentences(doc.full_text, KEY_POINT_COUNT).map((s) => s.text),
      mode: NO_MODEL_MODE.keyPoints,
      model: null,
      tokens_used: 0,
    };
  }
  return modelKeyPoints(doc, model, deps);
}

/** Key points written by the model (exported for the mock-model tests). */
export async function modelKeyPoints(doc: JudgmentForTools, model: LanguageModel, deps: ToolDeps = {}): Promise<KeyPointsResponse> {
  try {
    const r = await generateObject({
      model,
      schema: keyPointsOutput,
      schemaName: "key_points",
      system: `${SUMMARY_SYSTEM}\nList the judgment's key points: each one short sentence, at most ${KEY_POINT_COUNT}.`,
      prompt: textForModel(doc.full_text),
      ...llmCallSettings({ signal: deps.signal, functionId: "key-points" }),
    });
    return { document_id: doc.id, key_points: r.object.key_points.slice(0, KEY_POINT_COUNT), mode: "llm", model: modelName(model), tokens_used: tokensUsed(r.usage) };
  } catch (e) {
    throw modelCallError(e, "ASSISTANT_OUTPUT_INVALID");
  }
}

export interface JudgmentVersion {
  id: number;
  changed_at: string;
  changed_by: string | null;
  changed_columns: string[];
  old_values: Record<string, unknown>;
  new_values: Record<string, unknown>;
}

export interface VersionsResponse {
  document_id: string;
  versions: JudgmentVersion[];
  /** Pass as `before` for the next (older) page; null when this page is the last. */
  next_before: number | null;
}

const versionRow = z.object({
  id: z.number(),
  changed_at: z.string(),
  changed_by: z.string().nullable(),
  changed_columns: z.array(z.string()),
  old_values: z.record(z.string(), z.unknown()),
  new_values: z.record(z.string(), z.unknown()),
});

/** Changes of one judgment, newest first (404 DOCUMENT_NOT_FOUND for an id that is no judgment the caller can see). */
export async function judgmentVersions(rawId: string | undefined, query: { limit: number; before?: number }, identity: Identity): Promise<VersionsResponse> {
  if (!isUuid(rawId)) throw new ApiError("INVALID_ID", "The judgment id must be a UUID");
  const id = rawId.toLowerCase();
  const { data, error } = await identity.db.rpc("judgment_versions_list", { p_id: id, p_limit: query.limit, p_before: query.before });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw new ApiError("DOCUMENT_NOT_FOUND", "Judgment not found");
  const versions = z.array(versionRow).parse(data);
  return { document_id: id, versions, next_before: versions.length === query.limit ? (versions.at(-1)?.id ?? null) : null };
}
