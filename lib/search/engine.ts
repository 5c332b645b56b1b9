/**
 * The process-wide search engine (ARCHITECTURE: "MEILI_HOST switches to Meilisearch"): Meilisearch when MEILI_HOST
 * is set, else the embedded LanceDB adapter on SEARCH_DATA_DIR (default `.data/search`). One instance per process,
 * created on first use; `setSearchEngineForTests` swaps it.
 */
import path from "node:path";
import { config } from "@/lib/config";
import { availableEmbedderIds, chosenEmbedderId, createEmbedder } from "@/lib/search/embedders";
import { LanceDbEngine } from "./lancedb/engine";
import { MeilisearchEngine } from "./meilisearch/adapter";
import { meiliConfigFromEnv } from "./meilisearch/config";
import type { Embedder, SearchEngine } from "./types";

interface Holder {
  engine: SearchEngine;
  embedder: Embedder;
}

// Next's dev server re-evaluates modules; keep the singleton on globalThis so it survives reloads.
const g = globalThis as typeof globalThis & { __searchEngine?: Holder };

export function searchDataDir(): string {
  return path.resolve(config().SEARCH_DATA_DIR ?? path.join(process.cwd(), ".data", "search"));
}

export function createSearchEngine(embedder: Embedder = createEmbedder()): SearchEngine {
  const meili = meiliConfigFromEnv();
  if (meili) return new MeilisearchEngine({ config: meili, embedder });
  return new LanceDbEngine({ dir: searchDataDir(), embedder });
}

export function getSearch(): Holder {
  // After an embedder switch (lib/backend/settings/reembed.ts) every process follows the recorded choice.
  const chosen = chosenEmbedderId();
  if (g.__searchEngine && chosen && g.__searchEngine.embedder.id !== chosen && availableEmbedderIds().includes(chosen)) {
    g.__searchEngine = undefined;
  }
  if (!g.__searchEngine) {
    const embedder = createEmbedder();
    g.__searchEngine = { engine: createSearchEngine(embedder), embedder };
  }
  return g.__searchEngine;
}

export function getSearchEngine(): SearchEngine {
  return getSearch().engine;
}

/** Whether searches are answered inside this process (the embedded index), not by a Meilisearch server over the network. */
export function searchEngineInProcess(): boolean {
  return !(getSearchEngine() instanceof MeilisearchEngine);
}

export function setSearchEngineForTests(holder: Holder | undefined): void {
  g.__searchEngine = holder;
}

/** Swap in an engine whose index is complete (the embedder switch, after its re-embed committed). */
export function replaceSearch(holder: Holder): void {
  g.__searchEngine = holder;
}
