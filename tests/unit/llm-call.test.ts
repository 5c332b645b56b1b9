/**
 * The one llm module's call settings: every model call gets LLM_TIMEOUT_MS, retries on 429/5xx
 * (LLM_MAX_RETRIES = 2, exponential backoff) and telemetry only when tracing is really registered. Checked with the
 * ai SDK's mock model, through a plain generateText and through the three callers that used to pick their own
 * settings (NL filter, schema generation, the model extractor).
 */
import { APICallError, type LanguageModelV3CallOptions, type LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { generateText, RetryError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { trace, TraceFlags, INVALID_SPAN_CONTEXT, type Span, type SpanContext, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultChecks } from "@/lib/backend/health/checks";
import { resetConfigForTests } from "@/lib/config";
import { isLlmTimeout, llmCallSettings, llmTracingEnabled } from "@/lib/llm/call";
import { translateQuestion } from "@/lib/llm/nl-filter";
import { generateSchema } from "@/lib/backend/schemas/generate";
import { extractWithModel } from "@/lib/backend/schemas/extract-document";
import { textResult } from "../helpers/mock-model";

/** An error as the OpenAI provider raises it for an HTTP status (429 and 5xx are retryable, 4xx not). */
function httpError(status: number, headers: Record<string, string> = { "retry-after-ms": "1" }): APICallError {
  return new APICallError({
    message: `HTTP ${status}`,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    isRetryable: status === 429 || status >= 500,
  });
}

/** A mock model that fails with `failures` in turn, then answers `answer`. */
function flaky(failures: APICallError[], answer: LanguageModelV3GenerateResult) {
  let calls = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (_options: LanguageModelV3CallOptions) => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return answer;
    },
  });
  return { model, calls: () => calls };
}

/** A model that never answers: it waits for its abort signal (or fails at once when it is already aborted). */
const hanging = () =>
  new MockLanguageModelV3({
    doGenerate: ({ abortSignal }) =>
      new Promise((_resolve, reject) => {
        if (abortSignal?.aborted) reject(abortSignal.reason);
        abortSignal?.addEventListener("abort", () => reject(abortSignal.reason));
      }),
  });

afterEach(() => {
  delete process.env.LLM_MAX_RETRIES;
  delete process.env.LLM_TIMEOUT_MS;
  resetConfigForTests();
  vi.useRealTimers();
});

describe("llmCallSettings", () => {
  it("defaults: 2 retries, a time budget signal, no telemetry while no tracer provider is registered", () => {
    const s = llmCallSettings();
    expect(s.maxRetries).toBe(2);
    expect(s.abortSignal.aborted).toBe(false);
    expect(s.experimental_telemetry).toBeUndefined();
  });

  it("reads LLM_MAX_RETRIES", () => {
    process.env.LLM_MAX_RETRIES = "0";
    resetConfigForTests();
    expect(llmCallSettings().maxRetries).toBe(0);
  });

  it("retries a 429 and a 503, then succeeds with the third try", async () => {
    const { model, calls } = flaky([httpError(429), httpError(503)], textResult("fine"));
    const out = await generateText({ model, prompt: "q", ...llmCallSettings() });
    expect(out.text).toBe("fine");
    expect(calls()).toBe(3);
  });

  it("gives up after 2 retries (3 tries in all) with the last error", async () => {
    const { model, calls } = flaky([httpError(500), httpError(502), httpError(503), httpError(504)], textResult("never"));
    const error = await generateText({ model, prompt: "q", ...llmCallSettings() }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(RetryError.isInstance(error)).toBe(true);
    if (!RetryError.isInstance(error)) return;
    expect(error.reason).toBe("maxRetriesExceeded");
    expect(error.errors).toHaveLength(3);
    expect(calls()).toBe(3);
  });

  it("does not retry a 400 (not retryable)", async () => {
    const { model, calls } = flaky([httpError(400), httpError(400)], textResult("never"));
    await expect(generateText({ model, prompt: "q", ...llmCallSettings() })).rejects.toThrow("HTTP 400");
    expect(calls()).toBe(1);
  });

  it("backs off exponentially between tries when the server gives no Retry-After (2 s, then 4 s)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { model, calls } = flaky([httpError(503, {}), httpError(503, {})], textResult("fine"));
    const answer = generateText({ model, prompt: "q", ...llmCallSettings() });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect((await answer).text).toBe("fine");
    expect(calls()).toBe(3);
  });

  it("aborts at the time budget (LLM_TIMEOUT_MS), and the failure reads as a time-out", async () => {
    process.env.LLM_TIMEOUT_MS = "100";
    resetConfigForTests();
    const model = hanging();
    const settings = llmCallSettings();
    const error = await generateText({ model, prompt: "q", ...settings }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    expect(settings.abortSignal.aborted).toBe(true);
    expect(isLlmTimeout(error, settings)).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(1); // an abort is not retried
  });

  it("the caller's own signal aborts the call too, and that is not a time-out", async () => {
    const stop = new AbortController();
    const settings = llmCallSettings({ signal: stop.signal });
    const pending = generateText({ model: hanging(), prompt: "q", ...settings }).then(
      () => null,
      (e: unknown) => e,
    );
    stop.abort();
    const error = await pending;
    expect(error).not.toBeNull();
    expect(isLlmTimeout(error, settings)).toBe(false);
  });
});

describe("the callers that used to choose their own settings go through llmCallSettings", () => {
  it("the NL filter retries a 429 and then answers", async () => {
    const answer = textResult(JSON.stringify({ filters: { did_offender_confess: true }, text_query: null }));
    const { model, calls } = flaky([httpError(429)], answer);
    const out = await translateQuestion("offenders who confessed", model);
    expect(out.filters).toEqual({ did_offender_confess: true });
    expect(calls()).toBe(2);
  });

  it("the NL filter gives up after 2 retries → 502 NL_FILTER_FAILED", async () => {
    const { model, calls } = flaky([httpError(500), httpError(500), httpError(500)], textResult("{}"));
    await expect(translateQuestion("murder", model)).rejects.toMatchObject({ status: 502, code: "NL_FILTER_FAILED" });
    expect(calls()).toBe(3);
  });

  it("the NL filter's budget is LLM_TIMEOUT_MS → 504 UPSTREAM_TIMEOUT", async () => {
    process.env.LLM_TIMEOUT_MS = "100";
    resetConfigForTests();
    await expect(translateQuestion("murder", hanging())).rejects.toMatchObject({ status: 504, code: "UPSTREAM_TIMEOUT" });
  });

  it("schema generation retries a 503 and then answers", async () => {
    const draft = { name: "S", description: "d", fields: [{ name: "sentence_years", type: "number", description: "", enum_values: null, required: false }] };
    const { model, calls } = flaky([httpError(503)], textResult(JSON.stringify(draft)));
    const out = await generateSchema({ description: "custodial terms" }, { model });
    expect(out.fields.map((f) => f.name)).toEqual(["sentence_years"]);
    expect(calls()).toBe(2);
  });

  it("the model extractor retries a 429 and then answers", async () => {
    const { model, calls } = flaky([httpError(429)], textResult(JSON.stringify({ case_number: "II AKa 1/20" })));
    const out = await extractWithModel("SYGN. AKT II AKa 1/20", [{ name: "case_number", type: "string", description: "", required: false }], {
      model,
      modelId: "mock-1",
    });
    expect(out).toEqual({ status: "completed", values: { case_number: "II AKa 1/20" }, model: "mock-1" });
    expect(calls()).toBe(2);
  });
});

/**
 * A minimal tracer provider standing in for an OpenTelemetry SDK: it hands out spans with a valid context and
 * records their names, which is all the switch and the ai SDK need.
 */
function recordingProvider(): { provider: TracerProvider; started: string[] } {
  const started: string[] = [];
  let n = 0;
  const tracer: Tracer = {
    startSpan(name: string): Span {
      started.push(name);
      n += 1;
      const ctx: SpanContext = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: n.toString(16).padStart(16, "0"), traceFlags: TraceFlags.SAMPLED };
      const span: Span = {
        spanContext: () => ctx,
        setAttribute: () => span,
        setAttributes: () => span,
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        setStatus: () => span,
        updateName: () => span,
        end: () => undefined,
        isRecording: () => true,
        recordException: () => undefined,
      };
      return span;
    },
    startActiveSpan(name: string, ...rest: unknown[]) {
      const fn = rest[rest.length - 1] as (span: Span) => unknown;
      return fn(this.startSpan(name));
    },
  } as Tracer;
  return { provider: { getTracer: () => tracer }, started };
}

describe("tracing is reported only when a tracer provider is really registered", () => {
  afterEach(() => {
    trace.disable();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  });

  it("an OTLP endpoint alone traces nothing: no telemetry on calls, health llm_tracing not_configured with the reason", async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = "http://127.0.0.1:4318";
    expect(trace.getTracer("t").startSpan("x").spanContext()).toEqual(INVALID_SPAN_CONTEXT);
    expect(llmTracingEnabled()).toBe(false);
    expect(llmCallSettings().experimental_telemetry).toBeUndefined();
    expect(await defaultChecks().llm_tracing()).toEqual({
      status: "not_configured",
      detail: expect.stringContaining("no OpenTelemetry tracer provider is registered"),
    });
  });

  it("with a registered provider: calls carry telemetry, the ai SDK's spans reach it, health reads ok", async () => {
    const { provider, started } = recordingProvider();
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    expect(llmTracingEnabled()).toBe(true);
    const settings = llmCallSettings({ functionId: "test" });
    expect(settings.experimental_telemetry).toEqual({ isEnabled: true, functionId: "test", recordInputs: false, recordOutputs: false });
    started.length = 0;
    await generateText({ model: new MockLanguageModelV3({ doGenerate: textResult("traced") }), prompt: "q", ...settings });
    expect(started).toEqual(expect.arrayContaining(["ai.generateText", "ai.generateText.doGenerate"]));
    expect(await defaultChecks().llm_tracing()).toMatchObject({ status: "ok" });
  });
});
