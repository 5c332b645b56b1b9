/**
 * Model-call tracing end to end: registerLlmTracing (what instrumentation.ts calls when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set) exports the ai SDK's spans over OTLP/HTTP; a local receiver started here gets
 * them, parent and child linked, with the call's function id and token counts and without the prompt or the answer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, trace } from "@opentelemetry/api";
import { generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultChecks } from "@/lib/backend/health/checks";
import { llmCallSettings, llmTracingEnabled } from "@/lib/llm/call";
import { registerLlmTracing, tracesUrl } from "@/lib/llm/tracing";
import { textResult } from "../helpers/mock-model";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

let server: Server;
const received: { url: string; contentType: string; body: OtlpExport }[] = [];
let endpoint = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ url: req.url ?? "", contentType: String(req.headers["content-type"]), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  trace.disable();
  context.disable();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("OTLP export of model calls", () => {
  it("the traces URL is the endpoint's /v1/traces unless a traces endpoint is given", () => {
    expect(tracesUrl("http://collector:4318/", "")).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl("http://collector:4318", "http://other:4318/custom")).toBe("http://other:4318/custom");
  });

  it("nothing is registered without an endpoint", () => {
    expect(registerLlmTracing("")).toBeNull();
    expect(llmTracingEnabled()).toBe(false);
  });

  it("a model call's spans reach the local OTLP receiver; health reads ok", async () => {
    const provider = registerLlmTracing(endpoint);
    expect(provider).not.toBeNull();
    expect(llmTracingEnabled()).toBe(true);
    expect(await defaultChecks().llm_tracing()).toMatchObject({ status: "ok" });

    const model = new MockLanguageModelV3({ doGenerate: textResult("The secret answer", { input: 11, output: 7 }) });
    const out = await generateText({ model, prompt: "The private question", ...llmCallSettings({ functionId: "tracing-test" }) });
    expect(out.text).toBe("The secret answer");
    await provider?.forceFlush();

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.url === "/v1/traces" && r.contentType.startsWith("application/json"))).toBe(true);
    const spans = received.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const outer = spans.find((s) => s.name === "ai.generateText");
    const inner = spans.find((s) => s.name === "ai.generateText.doGenerate");
    expect(outer).toBeDefined();
    expect(inner).toBeDefined();
    expect(inner?.traceId).toBe(outer?.traceId);
    expect(inner?.parentSpanId).toBe(outer?.spanId);
    const attr = (s: OtlpSpan | undefined, key: string) => s?.attributes.find((a) => a.key === key)?.value;
    expect(attr(outer, "ai.telemetry.functionId")).toEqual({ stringValue: "tracing-test" });
    expect(Object.values(attr(inner, "ai.usage.inputTokens") ?? {}).map(Number)).toEqual([11]);
    // Neither the prompt nor the answer leaves the process.
    const text = JSON.stringify(received.map((r) => r.body));
    expect(text).not.toContain("private question");
    expect(text).not.toContain("secret answer");
  });
});
