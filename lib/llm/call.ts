/**
 * The settings every model call carries, so no feature picks its own: a time budget
 * (LLM_TIMEOUT_MS), retries on 429/5xx (LLM_MAX_RETRIES; the ai SDK retries only retryable API errors and backs off
 * exponentially between tries), and telemetry when tracing is configured. Spread into generateText / streamText /
 * generateObject: `generateObject({ model, schema, prompt, ...llmCallSettings({ signal, functionId: "precedents" }) })`.
 */
import { isSpanContextValid, trace } from "@opentelemetry/api";
import { config } from "@/lib/config";
import { withinBudget } from "@/lib/request-budget";

/** What a feature answered with: a model, or a deterministic algorithm over real retrieval (labelled in API and UI). */
export type AssistantMode = "llm" | "extractive" | "rules";

export interface LlmCallSettings {
  maxRetries: number;
  abortSignal: AbortSignal;
  experimental_telemetry?: { isEnabled: boolean; functionId?: string; recordInputs: boolean; recordOutputs: boolean };
}

/**
 * Whether model calls are traced (OpenTelemetry through the ai SDK): a tracer provider is really registered with the
 * global OpenTelemetry API (instrumentation.ts → lib/llm/tracing.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set). The
 * endpoint alone does not count: without a provider the SDK's spans go to the no-op one. The probe span is never
 * ended, so it is never exported.
 */
export function llmTracingEnabled(): boolean {
  return isSpanContextValid(trace.getTracer("llm-tracing-probe").startSpan("probe").spanContext());
}

/**
 * Settings for one model call. `signal` (e.g. the request's, or a stop button's) is combined with the time budget:
 * whichever fires first aborts the call. `timeoutMs` overrides LLM_TIMEOUT_MS (tests, a caller with a shorter budget).
 */
export function llmCallSettings(opts: { signal?: AbortSignal; functionId?: string; timeoutMs?: number } = {}): LlmCallSettings {
  const c = config();
  // Inside an API request, no longer than what is left of its time budget (lib/request-budget.ts).
  const timeout = AbortSignal.timeout(Math.max(1, withinBudget(opts.timeoutMs ?? c.LLM_TIMEOUT_MS)));
  const abortSignal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const settings: LlmCallSettings = { maxRetries: c.LLM_MAX_RETRIES, abortSignal };
  // Spans carry timings, model and token counts, never the prompt or the answer (questions and judgment text stay
  // out of the tracing backend, as they stay out of product events).
  if (llmTracingEnabled()) settings.experimental_telemetry = { isEnabled: true, functionId: opts.functionId, recordInputs: false, recordOutputs: false };
  return settings;
}

/** Tokens a call used, as the ai SDK reports them (0 when the provider did not say). */
export function tokensUsed(usage: { totalTokens?: number; inputTokens?: number; outputTokens?: number } | undefined): number {
  if (!usage) return 0;
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/**
 * Whether a failed call ended because its time budget ran out (not the caller's own signal): the settings' signal
 * fired with a TimeoutError, or the error is one. Callers map this to 504 UPSTREAM_TIMEOUT.
 */
export function isLlmTimeout(error: unknown, settings: Pick<LlmCallSettings, "abortSignal">): boolean {
  const reason: unknown = settings.abortSignal.aborted ? settings.abortSignal.reason : undefined;
  if (reason instanceof Error && reason.name === "TimeoutError") return true;
  return error instanceof Error && error.name === "TimeoutError";
}
