/**
 * The service's language model: any OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY, LLM_MODEL).
 * LLM routes fail closed (ARCHITECTURE: LLM row): without a key or a server address there is no model and the route
 * answers 503 LLM_NOT_CONFIGURED instead of calling anything.
 */
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { ApiError } from "@/lib/errors";
import { config } from "@/lib/config";

export interface LlmStatus {
  configured: boolean;
  model: string | null;
}

let cached: { key: string; model: LanguageModel } | null = null;

/**
 * The one answer to "is a language model configured?" (the NL box, the LLM routes, /api/llm/status, health): an API
 * key, or the address of an OpenAI-compatible server (a local one may need no key).
 */
export function llmConfigured(): boolean {
  const c = config();
  return Boolean(c.OPENAI_API_KEY || c.OPENAI_BASE_URL);
}

/** Whether an LLM is configured and which model the routes use (safe to show: no key, no address). */
export function llmStatus(): LlmStatus {
  return llmConfigured() ? { configured: true, model: config().LLM_MODEL } : { configured: false, model: null };
}

/**
 * The configured chat model, or null when none is configured (llmConfigured). Built once per configuration. It uses the Chat
 * Completions API (`provider.chat`) rather than the Responses API, because that is what "any OpenAI-compatible
 * server" (vLLM, Ollama, LM Studio, proxies) implements.
 */
export function languageModel(): LanguageModel | null {
  const c = config();
  if (!llmConfigured()) return null;
  const key = `${c.OPENAI_BASE_URL ?? ""}\u0000${c.LLM_MODEL}\u0000${c.OPENAI_API_KEY ?? ""}`;
  if (cached?.key !== key) {
    // A keyless local server still needs a non-empty key for the SDK (it refuses to start without one).
    const provider = createOpenAI({ apiKey: c.OPENAI_API_KEY ?? "unused", baseURL: c.OPENAI_BASE_URL });
    cached = { key, model: provider.chat(c.LLM_MODEL) };
  }
  return cached.model;
}

/** The configured model or a 503 LLM_NOT_CONFIGURED (fail closed). */
export function requireLanguageModel(): LanguageModel {
  const model = languageModel();
  if (!model) {
    throw new ApiError("LLM_NOT_CONFIGURED", "No language model is configured on this server (set OPENAI_API_KEY or OPENAI_BASE_URL).");
  }
  return model;
}
