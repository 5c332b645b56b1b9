/**
 * Next's start-up hook: registers the OpenTelemetry exporter for model calls when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (lib/llm/tracing.ts). Node runtime only; the import is dynamic so nothing of it is bundled for the edge.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerLlmTracing } = await import("./lib/llm/tracing");
    registerLlmTracing();
  }
}
