/**
 * The service's language model: any OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY, LLM_MODEL).
 * LLM routes fail closed (ARCHITECTURE: LLM row): without a key there is no model and the route answers
 * 503 LLM_NOT_CONFIGURED instead of calling anything.
 */
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";

export interface LlmStatus {
  configured: boolean;
  model: string | null;
}

let cached: { key: string; model: LanguageModel } | null = null;

/** Whether an LLM is configured and which model the routes use (safe to show: no key, no address). */
export function llmStatus(): LlmStatus {
  const c = config();
  return c.OPENAI_API_KEY ? { configured: true, model: c.LLM_MODEL } : { configured: false, model: null };
}

/**
 * The configured chat model, or null when no API key is set. Built once per configuration. It uses the Chat
 * Completions API (`provider.chat`) rather than the Responses API, because that is what "any OpenAI-compatible
 * server" (vLLM, Ollama, LM Studio, proxies) implements.
 */
export function languageModel(): LanguageModel | null {
  const c = config();
  if (!c.OPENAI_API_KEY) return null;
  const key = `${c.OPENAI_BASE_URL ?? ""}\u0000${c.LLM_MODEL}\u0000${c.OPENAI_API_KEY}`;
  if (cached?.key !== key) {
    const provider = createOpenAI({ apiKey: c.OPENAI_API_KEY, baseURL: c.OPENAI_BASE_URL });
    cached = { key, model: provider.chat(c.LLM_MODEL) };
  }
  return cached.model;
}

/** The configured model or a 503 LLM_NOT_CONFIGURED (fail closed). */
export function requireLanguageModel(): LanguageModel {
  const model = languageModel();
  if (!model) {
    throw new ApiError(503, "LLM_NOT_CONFIGURED", "No language model is configured on this server (OPENAI_API_KEY is not set).");
  }
  return model;
}

/** Time budget of one LLM call (D-31: every outbound call has the configurable UPSTREAM_TIMEOUT_MS). */
export function llmTimeoutMs(): number {
  return config().UPSTREAM_TIMEOUT_MS;
}
