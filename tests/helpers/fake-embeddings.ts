import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { localHashVector } from "@/lib/search/embedders/local-hash";

/**
 * A tiny OpenAI-compatible embeddings server for tests of the model embedder path (the code under test is pointed at
 * it through OPENAI_BASE_URL): POST /v1/embeddings answers a deterministic vector per input (the lexical hash vector
 * of the text at the requested width, so similar texts get similar vectors). It counts the inputs it embedded and
 * records the model names asked for.
 */
export interface FakeEmbeddings {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Inputs embedded so far. */
  inputs: () => number;
  /** Model names of the requests, in order. */
  models: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeEmbeddings(dimensions: number): Promise<FakeEmbeddings> {
  let inputs = 0;
  const models: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } });
      return;
    }
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { model?: unknown; input?: unknown };
    } catch {
      send(400, { error: { message: "invalid JSON", type: "invalid_request_error" } });
      return;
    }
    const texts = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input : null;
    if (typeof body.model !== "string" || !texts || !texts.every((t): t is string => typeof t === "string")) {
      send(400, { error: { message: "model and input (strings) are required", type: "invalid_request_error" } });
      return;
    }
    models.push(body.model);
    inputs += texts.length;
    send(200, {
      object: "list",
      model: body.model,
      data: texts.map((t, index) => ({ object: "embedding", index, embedding: localHashVector(t, dimensions) })),
      usage: { prompt_tokens: texts.length, total_tokens: texts.length },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    inputs: () => inputs,
    models,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
