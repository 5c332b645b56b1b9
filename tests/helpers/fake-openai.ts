import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny OpenAI-compatible server for API tests of LLM routes (the app under test is pointed at it through
 * OPENAI_BASE_URL): POST /v1/chat/completions answers with canned assistant content chosen by the last user message.
 * It records every request body so tests can check what the app sent (model, response_format, prompts). A request
 * with `stream: true` is answered as the real server streams (SSE chunks of the content, a finish_reason chunk, a
 * usage chunk, `[DONE]`). An answer may be a function of the request (e.g. to score the candidates it lists).
 */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  response_format?: { type: string; json_schema?: { name?: string; strict?: boolean; schema?: Record<string, unknown> } };
  [key: string]: unknown;
}

export type Answer = string | { status: number; body: unknown } | ((req: ChatRequest) => string);

export interface FakeOpenAI {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: ChatRequest[];
  /** The assistant content answered for a question (matched on the last user message), or by default. */
  answer(question: string | "*", content: Answer): void;
  close(): Promise<void>;
}

function lastUserText(req: ChatRequest): string {
  const user = [...req.messages].reverse().find((m) => m.role === "user");
  if (!user) return "";
  if (typeof user.content === "string") return user.content;
  if (Array.isArray(user.content)) {
    return user.content.map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "")).join("");
  }
  return "";
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const answers = new Map<string, Answer>();
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } });
      return;
    }
    let body: ChatRequest;
    try {
      body = JSON.parse(await readBody(req)) as ChatRequest;
    } catch {
      send(400, { error: { message: "invalid JSON", type: "invalid_request_error" } });
      return;
    }
    requests.push(body);
    const canned = answers.get(lastUserText(body)) ?? answers.get("*");
    const answer = typeof canned === "function" ? canned(body) : canned;
    if (answer === undefined) {
      send(500, { error: { message: "no canned answer for this question", type: "server_error" } });
      return;
    }
    if (typeof answer !== "string") {
      send(answer.status, answer.body);
      return;
    }
    if (body.stream === true) {
      const id = `chatcmpl-fake-${requests.length}`;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body.model, choices, ...extra })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
      // Three deltas or fewer: the words of the answer, split where the spaces are.
      const words = answer.split(/(?<= )/);
      const step = Math.max(1, Math.ceil(words.length / 3));
      for (let i = 0; i < words.length; i += step) res.write(chunk([{ index: 0, delta: { content: words.slice(i, i + step).join("") }, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
      res.write(chunk([], { usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } }));
      res.end("data: [DONE]\n\n");
      return;
    }
    send(200, {
      id: `chatcmpl-fake-${requests.length}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (question, content) => void answers.set(question, content),
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
