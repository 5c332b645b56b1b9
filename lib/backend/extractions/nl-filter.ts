/**
 * POST /extractions/base-schema/nl-filter (spec): a signed-in user's question → `{filters, text_query, mode}`: the
 * configured model proposes and the rules check ("llm"), or, without a model, the rules translator answers ("rules"). The answer
 * only pre-fills a filter; nothing is searched. Each request is logged for analytics (nl_filter_requests, through
 * record_nl_filter_request) without blocking the response: the route hands over a scheduler (Next's `after()`), and a
 * failed write is only logged.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import type { LanguageModel } from "ai";
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { translateQuestion, type NlFilterResult } from "@/lib/llm/nl-filter";
import { translateByRules } from "@/lib/llm/nl-filter-rules";
import { languageModel, llmStatus } from "@/lib/llm/provider";

/** Longest question accepted (the same bound as text_query, spec: Limits). */
export const NL_QUESTION_MAX_CHARS = 1000;

export const NlFilterRequestSchema = z.strictObject({
  query: safeText().trim().min(1).max(NL_QUESTION_MAX_CHARS),
});

/** One analytics row (nl_filter_requests). */
export interface NlFilterRecord {
  userId: string | null;
  question: string;
  success: boolean;
  errorCode: string | null;
  latencyMs: number;
  model: string | null;
}

export interface NlFilterDeps {
  /** Called once per request with its analytics row; must not block (the route passes Next's `after`). */
  record: (row: NlFilterRecord) => void;
  /** The model to use; defaults to the configured one. `null`, or none configured: the rules translator (mode "rules"). */
  model?: LanguageModel | null;
  modelId?: string | null;
}

/** Translate a question, recording the outcome (success, error code, latency) whatever it is. */
export async function nlFilterRequest(question: string, userId: string | null, deps: NlFilterDeps): Promise<NlFilterResult> {
  const started = performance.now();
  const model = deps.model !== undefined ? deps.model : languageModel();
  // The model is recorded only when one is called: null in rules mode.
  const modelId = model === null ? null : deps.model !== undefined ? (deps.modelId ?? null) : llmStatus().model;
  const finish = (errorCode: string | null) =>
    deps.record({
      userId,
      question,
      success: errorCode === null,
      errorCode,
      latencyMs: Math.round(performance.now() - started),
      model: modelId,
    });
  try {
    // Without a model the rules translator answers (it used to be 503 LLM_NOT_CONFIGURED).
    const result = model === null ? translateByRules(question) : await translateQuestion(question, model);
    finish(null);
    return result;
  } catch (e) {
    finish(e instanceof ApiError ? e.code : "INTERNAL_ERROR");
    throw e;
  }
}

/**
 * Write one analytics row through the service role. Never throws: analytics must not break the user's request,
 * and it runs after the response has gone.
 */
export async function recordNlFilterRequest(serviceDb: () => DbClient, row: NlFilterRecord): Promise<void> {
  try {
    const { error } = await serviceDb().rpc("record_nl_filter_request", {
      p_user_id: row.userId,
      p_question: Array.from(row.question).slice(0, NL_QUESTION_MAX_CHARS).join(""),
      p_success: row.success,
      p_error_code: row.errorCode,
      p_latency_ms: Math.max(0, Math.round(row.latencyMs)),
      p_model: row.model,
    });
    if (error) logger.warn({ code: error.code, message: error.message }, "nl-filter analytics row not recorded");
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "nl-filter analytics row not recorded");
  }
}
