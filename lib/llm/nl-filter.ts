/**
 * Natural-language question → BaseSchemaFilters (spec: POST /extractions/base-schema/nl-filter). The translation
 * only pre-fills a filter; it never runs a search.
 *
 * Pipeline: the model answers under a JSON schema derived from the registry (nl-filter-schema.ts) → the answer is
 * checked against that schema (a value outside an allowed enumeration or an unknown key → 422 NL_FILTER_INVALID,
 * the caller should rephrase; anything else malformed → 502 NL_FILTER_FAILED) → a deterministic post-processor
 * re-derives the date range and the jurisdiction from the question's own words and strips case_type/court_level →
 * the result is validated with the shared filter schema, the same one the filter and aggregate routes use.
 */
import { generateText, jsonSchema, NoObjectGeneratedError, Output, zodSchema, type LanguageModel } from "ai";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { BaseSchemaFiltersSchema, type BaseSchemaFilters } from "@/lib/schema/requests/structured";
import { deriveDateRange, namesAppealJudgmentDate, type IsoDateRange } from "./nl-filter-dates";
import { isOutsideAllowedSet, issueKey, nlFailed, nlInvalid } from "./nl-filter-errors";
import { namedJurisdictions } from "./nl-filter-jurisdiction";
import { findSentencePhrases, sentenceFilters } from "./nl-filter-sentence";
import { NEVER_OUTPUT_KEYS, nlFields, nlLenientSchema, nlOutputSchema } from "./nl-filter-schema";
import { nlFilterSystemPrompt } from "./prompts/nl-filter";
import { isLlmTimeout, llmCallSettings, type AssistantMode } from "./call";

export { nlFailed, nlInvalid, type NlFilterErrorCode } from "./nl-filter-errors";

export interface NlFilterResult {
  filters: BaseSchemaFilters;
  text_query: string | null;
  /** "llm": a model proposed, the rules checked; "rules": no model, the deterministic translator (nl-filter-rules.ts). */
  mode: Extract<AssistantMode, "llm" | "rules">;
}

export interface TranslateOptions {
  /** Time budget of the model call; LLM_TIMEOUT_MS when absent. When it runs out → 504 UPSTREAM_TIMEOUT. */
  timeoutMs?: number;
  abortSignal?: AbortSignal;
}

/** Longest text_query passed on (the filter routes accept at most 1000 characters, spec: Limits). */
export const TEXT_QUERY_MAX_CHARS = 1000;

/**
 * Check the model's raw answer against the output schema and return it in BaseSchemaFilters shape (null keys and
 * empty selections dropped). Throws NL_FILTER_INVALID / NL_FILTER_FAILED.
 */
export function parseModelAnswer(raw: unknown): { filters: Record<string, unknown>; textQuery: string | null } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw nlFailed("The model did not answer with an object.");
  const rawFilters = (raw as Record<string, unknown>).filters;
  if (rawFilters !== undefined && rawFilters !== null && (typeof rawFilters !== "object" || Array.isArray(rawFilters))) {
    throw nlFailed("The model's filters are not an object.");
  }
  // Unknown keys would otherwise be stripped unseen; case_type/court_level are removed by rule (spec: never output).
  const known = new Set(nlFields().map((f) => f.key));
  const filtersIn: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((rawFilters ?? {}) as Record<string, unknown>)) {
    if ((NEVER_OUTPUT_KEYS as readonly string[]).includes(key)) continue;
    if (!known.has(key)) {
      if (value === null || value === undefined) continue;
      throw nlInvalid(`The translation used "${key}", which is not a filter the question can set. Rephrase the question.`, key);
    }
    filtersIn[key] = value;
  }

  const parsed = nlLenientSchema().safeParse({ ...(raw as Record<string, unknown>), filters: filtersIn });
  if (!parsed.success) {
    const enumIssue = parsed.error.issues.find(isOutsideAllowedSet);
    if (enumIssue) {
      const field = issueKey(enumIssue);
      throw nlInvalid(`The translation used a value outside the allowed set${field ? ` for ${field}` : ""}. Rephrase the question.`, field);
    }
    const first = parsed.error.issues[0];
    logger.warn({ issue: first ? { path: first.path.join("."), code: first.code } : null }, "nl-filter: malformed model answer");
    throw nlFailed();
  }

  const filters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed.data.filters as Record<string, unknown>)) {
    const kept = compact(value);
    if (kept !== undefined) filters[key] = kept;
  }
  const text = parsed.data.text_query?.trim() ?? "";
  return { filters, textQuery: text === "" ? null : Array.from(text).slice(0, TEXT_QUERY_MAX_CHARS).join("") };
}

/** Drop what means "no condition": null, "", [], and range objects without a bound. */
function compact(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value.trim() === "" ? undefined : value.trim();
  if (Array.isArray(value)) return value.length === 0 ? undefined : [...new Set(value)];
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined && v !== "");
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return value;
}

/**
 * The deterministic rules of the spec, applied over whatever the model answered:
 * - a date phrase in the question (date mapping table) fixes the range; it goes on decision_date unless the question
 *   names the appeal-court judgment date explicitly;
 * - date_of_appeal_court_judgment only when that date is named (else the model's range moves to decision_date);
 * - jurisdiction only when a country or legal system is named, and then exactly the named ones;
 * - sentence lengths, unpaid-work hours and fine amounts the question states ("over 5 years", "powyżej 3 lat") fix
 *   those ranges (nl-filter-sentence.ts), like dates;
 * - never case_type or court_level.
 */
export function applyQuestionRules(question: string, filters: Record<string, unknown>): Record<string, unknown> {
  const out = { ...filters };
  for (const key of NEVER_OUTPUT_KEYS) delete out[key];

  const appealNamed = namesAppealJudgmentDate(question);
  const derived: IsoDateRange | null = deriveDateRange(question);
  if (derived) {
    out[appealNamed ? "date_of_appeal_court_judgment" : "decision_date"] = { ...derived };
  }
  if (!appealNamed && out.date_of_appeal_court_judgment !== undefined) {
    if (out.decision_date === undefined) out.decision_date = out.date_of_appeal_court_judgment;
    delete out.date_of_appeal_court_judgment;
  }

  Object.assign(out, sentenceFilters(findSentencePhrases(question)));

  const named = namedJurisdictions(question);
  if (named.length > 0) out.jurisdiction = named;
  else delete out.jurisdiction;
  return out;
}

/**
 * The last gate: the shared BaseSchemaFilters schema (lib/schema/filters.ts), the one the filter and
 * aggregate routes check, so a pre-filled filter is always one those routes accept.
 */
export function validateFilters(filters: Record<string, unknown>): BaseSchemaFilters {
  const parsed = BaseSchemaFiltersSchema.safeParse(filters);
  if (parsed.success) return filters as BaseSchemaFilters; // checked by the shared schema just above
  const outside = parsed.error.issues.find(isOutsideAllowedSet);
  if (outside) {
    const field = issueKey(outside);
    throw nlInvalid(`The translation used a value outside the allowed set${field ? ` for ${field}` : ""}. Rephrase the question.`, field);
  }
  const first = parsed.error.issues[0];
  logger.warn({ issue: first ? { path: first.path.join("."), code: first.code } : null }, "nl-filter: translated filter failed validation");
  throw nlFailed();
}

/**
 * Translate a question with `model`. Resolves to `{filters, text_query}`; rejects with ApiError
 * NL_FILTER_INVALID (422), NL_FILTER_FAILED (502) or UPSTREAM_TIMEOUT (504, D-31).
 */
export async function translateQuestion(question: string, model: LanguageModel, opts: TranslateOptions = {}): Promise<NlFilterResult> {
  // The llm module's settings (LLM_TIMEOUT_MS, LLM_MAX_RETRIES on 429/5xx, telemetry when tracing is registered).
  const settings = llmCallSettings({ signal: opts.abortSignal, timeoutMs: opts.timeoutMs, functionId: "nl-filter" });

  // The model sees the registry-derived JSON schema (enums included); the answer is accepted as any JSON here and
  // checked by parseModelAnswer, so that an out-of-enum value can be told apart from a broken answer.
  const schema = jsonSchema<unknown>(() => zodSchema(nlOutputSchema()).jsonSchema, {
    validate: (value) => ({ success: true, value }),
  });

  let raw: unknown;
  try {
    const result = await generateText({
      model,
      system: nlFilterSystemPrompt(),
      prompt: question,
      output: Output.object({ schema, name: "base_schema_filter", description: "A filter over criminal appeal judgments." }),
      temperature: 0,
      ...settings,
    });
    raw = result.output;
  } catch (e) {
    if (isLlmTimeout(e, settings) && !opts.abortSignal?.aborted) throw new ApiError("UPSTREAM_TIMEOUT", "The language model took too long to answer.");
    if (opts.abortSignal?.aborted) throw e;
    logger.warn(
      { err: e instanceof Error ? { name: e.name, message: e.message } : String(e), noObject: NoObjectGeneratedError.isInstance(e) },
      "nl-filter: model call failed",
    );
    throw nlFailed();
  }

  const answer = parseModelAnswer(raw);
  const filters = applyQuestionRules(question, answer.filters);
  return { filters: validateFilters(filters), text_query: answer.textQuery, mode: "llm" };
}
