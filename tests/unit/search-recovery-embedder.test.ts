/**
 * The embedding provider down or slow during a hybrid search. Decided behaviour: the
 * search fails fast with `SearchEngineError` code `EMBEDDING_FAILED` (the route answers 503
 * {detail: {code: "EMBEDDING_FAILED"}} and the guest meter does not charge it), in both engines, after exactly one
 * request to the provider (no retries: a person is waiting) and within the query timeout when the provider hangs;
 * keyword search (semantic_ratio 0) keeps working. Before the fix the query path retried twice (3 requests) and,
 * on Meilisearch, the provider's error escaped unmapped (HTTP 500).
 *
 * The provider is a local OpenAI-compatible HTTP server (a language model stand-in) that fails with 500 or never
 * answers, counting requests.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AiSdkEmbedder } from "@/lib/search/embedders/ai-sdk";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { SearchEngineError, SemanticUnavailableError } from "@/lib/search/errors";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import type { SearchEngine } from "@/lib/search/types";
import { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";
import { F, FIXTURE_ROWS } from "../search-conformance/fixture";

let mode: "fail" | "hang" = "fail";
let requests = 0;
const hanging: http.ServerResponse[] = [];
const provider = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    requests++;
    if (mode === "hang") {
      hanging.push(res);
      return;
    }
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "provider down", type: "server_error" } }));
  });
});

const lexical = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-recovery-embedder-"));
let fake: FakeMeilisearch;
const engines: SearchEngine[] = [];

/** A model embedder on the failing provider, with the index's dimensions (so only the provider can fail). */
function failingEmbedder(): AiSdkEmbedder {
  const { port } = provider.address() as AddressInfo;
  const openai = createOpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "test" });
  return new AiSdkEmbedder({
    model: openai.embedding("text-embedding-test"),
    modelId: "text-embedding-test",
    dimensions: lexical.dimensions,
    timeoutMs: 30_000,
    queryTimeoutMs: 300,
  });
}

async function indexFixture(engine: SearchEngine): Promise<void> {
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch(FIXTURE_ROWS, lexical));
  await session.commit({ suggestions: [] });
}

beforeAll(async () => {
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  fake = await new FakeMeilisearch("embedder-key").start();
  // Both indexes are built with the lexical embedder; the engines under test then embed queries with the model.
  const builder = new LanceDbEngine({ dir, embedder: lexical });
  await indexFixture(builder);
  await builder.close();
  const meiliBuilder = meili(lexical);
  await indexFixture(meiliBuilder);
});

afterAll(async () => {
  for (const e of engines) await e.close();
  for (const res of hanging) res.destroy();
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function meili(embedder: LocalHashEmbedder | AiSdkEmbedder): MeilisearchEngine {
  const e = new MeilisearchEngine({
    config: { host: fake.url, apiKey: "embedder-key", index: "judgments", embedder: "default", timeoutMs: 10_000, taskTimeoutMs: 60_000, taskPollMs: 1 },
    embedder,
  });
  engines.push(e);
  return e;
}

const makers: Array<[string, () => SearchEngine]> = [
  [
    "lancedb",
    () => {
      const e = new LanceDbEngine({ dir, embedder: failingEmbedder() });
      engines.push(e);
      return e;
    },
  ],
  ["meilisearch (fake server)", () => meili(failingEmbedder())],
];

describe.each(makers)("embedding provider down during a hybrid search: %s", (_name, make) => {
  let engine: SearchEngine;
  beforeAll(() => {
    engine = make();
  });

  it("fails with EMBEDDING_FAILED after one request when the provider errors", async () => {
    mode = "fail";
    requests = 0;
    const err = await engine.searchDocuments({ q: "kitchen knife", semanticRatio: 0.5, limit: 5, offset: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchEngineError);
    expect(err).not.toBeInstanceOf(SemanticUnavailableError);
    expect((err as SearchEngineError).code).toBe("EMBEDDING_FAILED");
    expect(requests).toBe(1);
  });

  it("fails with EMBEDDING_FAILED when the provider hangs (query timeout), after one request", async () => {
    mode = "hang";
    requests = 0;
    const err = await engine.searchDocuments({ q: "armed robbery", semanticRatio: 0.5, limit: 5, offset: 0 }).catch((e: unknown) => e);
    expect((err as SearchEngineError).code).toBe("EMBEDDING_FAILED");
    expect(requests).toBe(1);
  });

  it("chunk search fails the same way, and keyword search keeps working", async () => {
    mode = "fail";
    const err = await engine.searchChunks({ query: "serrated blade", limit: 3 }).catch((e: unknown) => e);
    expect((err as SearchEngineError).code).toBe("EMBEDDING_FAILED");
    requests = 0;
    const r = await engine.searchDocuments({ q: "kitchen knife", limit: 5, offset: 0 });
    expect(r.hits[0].document.id).toBe(F.smith);
    expect(r.semanticRatio).toBe(0);
    expect(requests).toBe(0);
  });
});
