/**
 * OpenTelemetry for model calls: when OTEL_EXPORTER_OTLP_ENDPOINT is set, instrumentation.ts
 * registers a tracer provider that exports spans over OTLP/HTTP (JSON) to `${endpoint}/v1/traces` (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given). The ai SDK's spans (ai.generateText, ai.streamText.doStream, …) then
 * leave the process; llmCallSettings turns telemetry on exactly when a provider is registered (llmTracingEnabled).
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

let registered: TracerProvider | null = null;

/** The OTLP traces URL of an endpoint: the signal path appended to the base, as the OTLP exporter spec says. */
export function tracesUrl(endpoint: string, tracesEndpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): string {
  return tracesEndpoint || `${endpoint.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Register the exporting tracer provider once; null when no endpoint is set or another provider was registered
 * first (then that one receives the spans).
 */
export function registerLlmTracing(endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT): TracerProvider | null {
  if (!endpoint) return null;
  if (registered) return registered;
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(endpoint) }) })] });
  // Parent and child spans of one call find each other across awaits.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (!trace.setGlobalTracerProvider(provider)) return null;
  registered = provider;
  return provider;
}
