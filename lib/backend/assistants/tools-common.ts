/**
 * What the precedent finder, argumentation analysis and document helpers share: reading a
 * judgment with the caller's rights (RPC judgment_detail, RLS applies), the text a model may read, and the one
 * mapping of a failed model call to an API error (invalid structure, time-out, anything else).
 */
import { NoObjectGeneratedError, type LanguageModel } from "ai";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError, type ErrorCode } from "@/lib/errors";
import type { AssistantMode } from "@/lib/llm/call";
import { languageModel } from "@/lib/llm/provider";
import { isJsonObject } from "@/lib/supabase/json";
import { isUuid } from "@/lib/schema/uuid";
import type { Identity } from "../identity";

export type { AssistantMode } from "@/lib/llm/call";

/** The judgment fields these tools read (full text included). */
export interface JudgmentForTools {
  id: string;
  case_number: string | null;
  title: string | null;
  summary: string | null;
  court_name: string | null;
  decision_date: string | null;
  jurisdiction: string | null;
  full_text: string;
  keywords: string[];
  legal_topics: string[];
  cited_legislation: string[];
  base_keywords: string[];
  base_convict_offences: string[];
  base_appeal_outcome: string[];
  outcome: string | null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);

/** A judgments row (judgment_detail / judgments_by_ids JSON) as the tools see it. */
export function toJudgmentForTools(d: Record<string, unknown>): JudgmentForTools {
  return {
    id: String(d.id),
    case_number: str(d.case_number),
    title: str(d.title),
    summary: str(d.summary),
    court_name: str(d.court_name),
    decision_date: str(d.decision_date),
    jurisdiction: str(d.jurisdiction),
    full_text: typeof d.full_text === "string" ? d.full_text : "",
    keywords: strs(d.keywords),
    legal_topics: strs(d.legal_topics),
    cited_legislation: strs(d.cited_legislation),
    base_keywords: strs(d.base_keywords),
    base_convict_offences: strs(d.base_convict_offences),
    base_appeal_outcome: strs(d.base_appeal_outcome),
    outcome: str(d.outcome),
  };
}

function notFound(): ApiError {
  return new ApiError("DOCUMENT_NOT_FOUND", "Judgment not found");
}

/** One judgment with its full text, read as the caller (404 DOCUMENT_NOT_FOUND when there is none). */
export async function readJudgment(id: string, identity: Identity): Promise<JudgmentForTools> {
  if (!isUuid(id)) throw new ApiError("INVALID_ID", "The judgment id must be a UUID");
  const { data, error } = await identity.db.rpc("judgment_detail", { p_id: id.toLowerCase() });
  if (error) {
    const mapped = fromDatabaseError(error);
    throw mapped.code === "NOT_FOUND" ? notFound() : mapped;
  }
  if (!isJsonObject(data)) throw notFound();
  return toJudgmentForTools(data);
}

/** Several judgments in the order asked; the first missing one is a 404 naming it. */
export async function readJudgments(ids: readonly string[], identity: Identity): Promise<JudgmentForTools[]> {
  return Promise.all(
    ids.map((id) =>
      readJudgment(id, identity).catch((e: unknown) => {
        if (e instanceof ApiError && e.code === "DOCUMENT_NOT_FOUND") throw new ApiError("DOCUMENT_NOT_FOUND", `Judgment ${id} not found`, { document_id: id });
        throw e;
      }),
    ),
  );
}

/**
 * What a model reads of a judgment: the whole text when it fits ASSISTANT_MODEL_TEXT_MAX_CHARS, else the opening
 * third and the closing two thirds of the budget (the reasons and the decision sit at the end of a judgment).
 */
export function textForModel(text: string): string {
  const max = config().ASSISTANT_MODEL_TEXT_MAX_CHARS;
  if (text.length <= max) return text;
  const head = Math.floor(max / 3);
  return `${text.slice(0, head)}\n[…]\n${text.slice(text.length - (max - head))}`;
}

/** The model to use: the injected one (tests), else the configured one, else null (no-model mode). */
export function pickModel(injected: LanguageModel | null | undefined): LanguageModel | null {
  return injected === undefined ? languageModel() : injected;
}

/** The model's id as reported in responses (never a key or an address). */
export function modelName(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}

/** A failed model call → 502 `invalidCode` (the answer had the wrong structure), 504 (time-out) or 502 (anything else). */
export function modelCallError(e: unknown, invalidCode: ErrorCode): ApiError {
  if (e instanceof ApiError) return e;
  if (NoObjectGeneratedError.isInstance(e)) return new ApiError(invalidCode);
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) return new ApiError("ASSISTANT_MODEL_TIMEOUT");
  return new ApiError("ASSISTANT_MODEL_FAILED");
}

/** Mode labels of these tools: which algorithm answered without a model. */
export const NO_MODEL_MODE = { summary: "extractive", keyPoints: "extractive", argumentation: "rules", precedents: "rules" } as const satisfies Record<
  string,
  AssistantMode
>;
