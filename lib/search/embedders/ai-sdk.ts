/**
 * Embedder over any `ai` SDK embedding model (production: an OpenAI-compatible server configured by
 * OPENAI_BASE_URL, OPENAI_API_KEY and EMBEDDING_MODEL). Vectors are L2-normalised so the engines can use dot
 * products; query embeddings are cached (LRU) because the same searches repeat (pagination, typeahead, guests).
 */
import { embedMany, type EmbeddingModel } from "ai";
import type { Embedder } from "@/lib/search/types";
import { LruCache } from "@/lib/lru";

export interface AiSdkEmbedderOptions {
  model: EmbeddingModel;
  /** Model id for labels and the index state (a rebuild is needed when it changes). */
  modelId: string;
  dimensions: number;
  /** Characters kept per input (models have input limits; chunks are ~400 words). */
  maxInputChars?: number;
  timeoutMs?: number;
  /**
   * Bound on one query embedding (a search waits for it), default min(timeoutMs, 5 s); queries are not retried.
   * With the document path's 30 s timeout and two retries a hybrid search hung for
   * minutes on a provider that was down; now it fails fast and the search answers 503 EMBEDDING_FAILED.
   */
  queryTimeoutMs?: number;
  cacheSize?: number;
}

/** A model embedder's id is `ai:<model id>` (lexical ones are `local-hash[-<dimensions>]`, so the two never clash). */
export const MODEL_EMBEDDER_PREFIX = "ai:";

export function l2normalise(v: readonly number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return n > 0 ? v.map((x) => x / n) : [...v];
}

export class AiSdkEmbedder implements Embedder {
  readonly id: string;
  readonly label: string;
  readonly kind = "model" as const;
  readonly dimensions: number;
  private readonly cache: LruCache<string, number[]>;

  constructor(private readonly options: AiSdkEmbedderOptions) {
    this.id = `${MODEL_EMBEDDER_PREFIX}${options.modelId}`;
    this.label = options.modelId;
    this.dimensions = options.dimensions;
    this.cache = new LruCache(options.cacheSize ?? 1000);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return this.embed(texts, 2, this.options.timeoutMs ?? 30_000);
  }

  private async embed(texts: string[], maxRetries: number, timeoutMs: number): Promise<number[][]> {
    if (texts.length === 0) return [];
    const max = this.options.maxInputChars ?? 6000;
    const { embeddings } = await embedMany({
      model: this.options.model,
      values: texts.map((t) => (t.length > max ? t.slice(0, max) : t) || " "),
      maxRetries,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return embeddings.map((e) => {
      if (e.length !== this.dimensions) {
        throw new Error(`embedding model returned ${e.length} dimensions, expected ${this.dimensions}`);
      }
      return l2normalise(e);
    });
  }

  async embedQuery(text: string): Promise<number[]> {
    const hit = this.cache.get(text);
    if (hit) return hit;
    const timeout = this.options.queryTimeoutMs ?? Math.min(this.options.timeoutMs ?? 30_000, 5_000);
    const [v] = await this.embed([text], 0, timeout);
    this.cache.set(text, v);
    return v;
  }
}
