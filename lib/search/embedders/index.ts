/**
 * The configured embedder: a real model through the `ai` SDK when EMBEDDING_MODEL and an OpenAI-compatible endpoint
 * are configured, else the lexical `local-hash` embedder (ARCHITECTURE: embeddings).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { config } from "@/lib/config";
import type { Embedder } from "@/lib/search/types";
import { llmConfigured } from "../../llm/provider";
import { AiSdkEmbedder, MODEL_EMBEDDER_PREFIX } from "./ai-sdk";
import { LocalHashEmbedder } from "./local-hash";

import { chosenEmbedderId } from "./choice";
import { LOCAL_HASH_WIDE_DIMENSIONS } from "./local-hash";

export { AiSdkEmbedder, MODEL_EMBEDDER_PREFIX } from "./ai-sdk";
export { LocalHashEmbedder, LOCAL_HASH_LABEL, LOCAL_HASH_WIDE_DIMENSIONS } from "./local-hash";
export { chosenEmbedderId, recordEmbedderChoice } from "./choice";

/** Dimensions of well-known models; others need EMBEDDING_DIMENSIONS. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** The embedder this server is configured with (EMBEDDING_MODEL on an OpenAI-compatible endpoint, else local-hash). */
export function createConfiguredEmbedder(): Embedder {
  const c = config();
  if (!c.EMBEDDING_MODEL || !llmConfigured()) return new LocalHashEmbedder();
  return createModelEmbedder(c.EMBEDDING_MODEL);
}

function createModelEmbedder(modelId: string): Embedder {
  const c = config();
  const dims = Number(process.env.EMBEDDING_DIMENSIONS ?? KNOWN_DIMENSIONS[modelId] ?? NaN);
  if (!Number.isInteger(dims) || dims <= 0) {
    throw new Error(`EMBEDDING_DIMENSIONS must be set for embedding model ${modelId}`);
  }
  const provider = createOpenAI({ baseURL: c.OPENAI_BASE_URL, apiKey: c.OPENAI_API_KEY ?? "unused" });
  return new AiSdkEmbedder({
    model: provider.embedding(modelId),
    modelId,
    dimensions: dims,
    timeoutMs: c.UPSTREAM_TIMEOUT_MS,
  });
}

/** The id of the embedder over model `modelId`: the same string AiSdkEmbedder reports as its `id`. */
export function modelEmbedderId(modelId: string): string {
  return `${MODEL_EMBEDDER_PREFIX}${modelId}`;
}

/**
 * The embedders this server can switch to: the lexical default `local-hash`, a wider lexical
 * `local-hash-768`, and the configured model when there is one (`ai:<EMBEDDING_MODEL>`). Ids only, in the one scheme
 * every embedder reports as its `id` (the index state, health, GET/PUT /api/settings/embeddings, the recorded
 * choice); `createEmbedderById` builds them.
 */
export function availableEmbedderIds(): string[] {
  const c = config();
  const ids = ["local-hash", `local-hash-${LOCAL_HASH_WIDE_DIMENSIONS}`];
  if (c.EMBEDDING_MODEL && llmConfigured()) ids.push(modelEmbedderId(c.EMBEDDING_MODEL));
  return ids;
}

/** Build an available embedder by id, or null when this server does not offer it. */
export function createEmbedderById(id: string): Embedder | null {
  if (!availableEmbedderIds().includes(id)) return null;
  if (id === "local-hash") return new LocalHashEmbedder();
  if (id === `local-hash-${LOCAL_HASH_WIDE_DIMENSIONS}`) return new LocalHashEmbedder(LOCAL_HASH_WIDE_DIMENSIONS);
  if (id.startsWith(MODEL_EMBEDDER_PREFIX)) return createModelEmbedder(id.slice(MODEL_EMBEDDER_PREFIX.length));
  return null;
}

/**
 * The embedder the index uses: the one an admin switched to (recorded after its re-embed completed), when this
 * server still offers it, else the configured one.
 */
export function createEmbedder(): Embedder {
  const chosen = chosenEmbedderId();
  return (chosen ? createEmbedderById(chosen) : null) ?? createConfiguredEmbedder();
}
