/**
 * Extract one judgment under one schema: the function a job runs per document.
 *   - "rules" (no model, the embedded default): rules-v1 (lib/extraction/rules); a field with a rule of its own
 *     (lib/extraction/custom-rules.ts) is read by it, a field whose name is one the rules fill gets the value when its
 *     type fits, every other field is null and declared as needing a model (lib/extraction/fillability.ts), so it is
 *     left out of the check of required fields. Labelled extraction_model "rules-v1".
 *   - "model": generateObject with the schema's JSON form over the sections of the text that matter, kept under
 *     EXTRACTION_MAX_INPUT_TOKENS; a result that fails the ajv check is a failure with the reason.
 * Both results pass the same ajv validator before they are accepted.
 */
import { generateObject, jsonSchema, type LanguageModel } from "ai";
import { config } from "@/lib/config";
import { isLlmTimeout, llmCallSettings } from "@/lib/llm/call";
import { extractRules, RULES_MODEL, type RulesResult } from "@/lib/extraction/rules";
import { applyFieldRule, fold } from "@/lib/extraction/custom-rules";
import { filledByName } from "@/lib/extraction/fillability";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { toJsonSchema, validationFailure, type JsonSchemaObject } from "./json-schema";

export type ExtractionOutcome =
  | { status: "completed"; values: Record<string, unknown>; model: string }
  | { status: "failed"; error: string; model: string };

/** A rough token count (≈ 4 characters a token for PL and EN legal text); the budget leaves room for the answer. */
export const approxTokens = (s: string) => Math.ceil(s.length / 4);

const KEY_PARAGRAPH = /sentenc|imprison|appeal|conviction|quash|dismiss|kar[aęy]|pozbawienia wolności|apelacj|utrzymuje|uchyla|zmienia|art\.\s*\d+/i;

/**
 * The sections that matter when a judgment is longer than the budget: the opening (parties, court, charges), the
 * closing (the decision), and in between the paragraphs that speak of sentence, appeal or the charged articles, in
 * their original order, until the budget is used.
 */
export function selectSections(text: string, maxTokens: number): string {
  if (approxTokens(text) <= maxTokens) return text;
  const budget = maxTokens * 4;
  const head = text.slice(0, Math.floor(budget * 0.4));
  const tail = text.slice(text.length - Math.floor(budget * 0.3));
  let room = budget - head.length - tail.length;
  const middle = text.slice(head.length, text.length - tail.length).split(/\n\s*\n/);
  const kept: string[] = [];
  for (const p of middle) {
    if (!KEY_PARAGRAPH.test(p)) continue;
    if (p.length + 7 > room) break;
    kept.push(p);
    room -= p.length + 7;
  }
  return [head, ...kept, tail].join("\n[…]\n");
}

/** A rules value in the shape a field of this type accepts, or null when it does not fit. */
function fit(field: SchemaField, value: RulesResult[keyof RulesResult]): unknown {
  if (value === null || value === undefined) return null;
  const scalars = Array.isArray(value)
    ? value.map((v) => (typeof v === "string" ? v : `${v.name}${v.role ? ` (${v.role})` : ""}`))
    : [String(value)];
  switch (field.type) {
    case "string":
      return scalars.length ? scalars.join("; ") : null;
    case "string[]":
      return scalars;
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
    case "enum":
      return scalars.length === 1 && field.enum_values?.includes(scalars[0]) ? scalars[0] : null;
    case "enum[]": {
      const ok = scalars.filter((v) => field.enum_values?.includes(v));
      return ok.length ? ok : null;
    }
    default:
      return null; // numbers and booleans are not what rules read
  }
}

export function extractWithRules(text: string, fields: SchemaField[]): ExtractionOutcome {
  const found = extractRules(text);
  const folded = fields.some((f) => f.rule && f.rule.kind !== "regex") ? fold(text) : "";
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const fillable: SchemaField[] = [];
  for (const f of fields) {
    if (f.rule) {
      const r = applyFieldRule(text, f, f.rule, folded);
      values[f.name] = r.value;
      if (r.problem) problems.push(`${f.name}: ${r.problem}`);
      fillable.push(f);
    } else if (filledByName(f)) {
      values[f.name] = fit(f, found[f.name as keyof RulesResult]);
      fillable.push(f);
    } else {
      values[f.name] = null; // needs a model: declared before the job ran, not a missing value
    }
  }
  // A required field the rules can fill but found nothing for is a failure with the reason, never an invented value.
  const failure = validationFailure(toJsonSchema(fillable), Object.fromEntries(fillable.map((f) => [f.name, values[f.name]])));
  if (failure) return { status: "failed", error: `rules-v1 could not fill the schema: ${failure}`, model: RULES_MODEL };
  // A rule that could not run (a regex over its time bound) fails the document with the reason, shown with the failed
  // rows, rather than passing its silence off as "not stated".
  if (problems.length) return { status: "failed", error: `a field's rule could not run: ${problems.join("; ")}`, model: RULES_MODEL };
  return { status: "completed", values, model: RULES_MODEL };
}

export async function extractWithModel(
  text: string,
  fields: SchemaField[],
  deps: { model: LanguageModel; modelId: string; timeoutMs?: number; maxInputTokens?: number },
): Promise<ExtractionOutcome> {
  const schema: JsonSchemaObject = toJsonSchema(fields);
  const input = selectSections(text, deps.maxInputTokens ?? config().EXTRACTION_MAX_INPUT_TOKENS);
  let object: unknown;
  // The llm module's settings: LLM_TIMEOUT_MS (or the caller's), retries on 429/5xx, telemetry when traced.
  const settings = llmCallSettings({ timeoutMs: deps.timeoutMs, functionId: "schemas.extract" });
  try {
    ({ object } = await generateObject({
      model: deps.model,
      schema: jsonSchema(schema),
      schemaName: "extraction",
      system:
        "Extract the requested fields from this criminal appeal judgment. Use null when the judgment does not state a value; never guess. Dates are YYYY-MM-DD.",
      prompt: input,
      ...settings,
    }));
  } catch (e) {
    const timedOut = isLlmTimeout(e, settings);
    const reason = timedOut ? "the model did not answer in time" : `the model's answer was not usable: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`;
    return { status: "failed", error: reason, model: deps.modelId };
  }
  const failure = validationFailure(schema, object);
  if (failure) return { status: "failed", error: `the model's answer failed the schema: ${failure}`, model: deps.modelId };
  return { status: "completed", values: object as Record<string, unknown>, model: deps.modelId };
}
