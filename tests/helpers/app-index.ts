import fs from "node:fs";
import type pg from "pg";
import { LocalHashEmbedder } from "@/lib/llm/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";
import { Browser } from "./http";

/**
 * Rebuild the running test app's search index from the database (after a test changed rows it searches), and wait
 * until the app serves the new generation: it re-reads state.json at most once a second, then one request makes it
 * open the generation.
 */
export async function rebuildAppIndex(pool: pg.Pool, dataDir: string): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const embedder = new LocalHashEmbedder();
  const engine = new LanceDbEngine({ dir: dataDir, embedder });
  await fullSync(pool, { engine, embedder });
  await engine.close();
  await new Promise((r) => setTimeout(r, 1100));
  await new Browser().get("/api/search/suggest?q=warmup");
  await new Promise((r) => setTimeout(r, 1500));
}
