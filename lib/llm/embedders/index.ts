/**
 * The configured embedder: a real model through the `ai` SDK when EMBEDDING_MODEL and an OpenAI-compatible endpoint
 * are configured, else the lexical `local-hash` embedder (ARCHITECTURE: embeddings).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { config } from "@/lib/config";
import type { Embedder } from "@/lib/search/types";
import { llmConfigured } from "../provider";
import { AiSdkEmbedder } from "./ai-sdk";
import { LocalHashEmbedder } from "./local-hash";

export { AiSdkEmbedder } from "./ai-sdk";
export { LocalHashEmbedder, LOCAL_HASH_LABEL } from "./local-hash";

/** Dimensions of well-known models; others need EMBEDDING_DIMENSIONS. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

export function createEmbedder(): Embedder {
  const c = config();
  if (!c.EMBEDDING_MODEL || !llmConfigured()) return new LocalHashEmbedder();
  const dims = Number(process.env.EMBEDDING_DIMENSIONS ?? KNOWN_DIMENSIONS[c.EMBEDDING_MODEL] ?? NaN);
  if (!Number.isInteger(dims) || dims <= 0) {
    throw new Error(`EMBEDDING_DIMENSIONS must be set for embedding model ${c.EMBEDDING_MODEL}`);
  }
  const provider = createOpenAI({ baseURL: c.OPENAI_BASE_URL, apiKey: c.OPENAI_API_KEY ?? "unused" });
  return new AiSdkEmbedder({
    model: provider.embedding(c.EMBEDDING_MODEL),
    modelId: c.EMBEDDING_MODEL,
    dimensions: dims,
    timeoutMs: c.UPSTREAM_TIMEOUT_MS,
  });
}
