/**
 * Switching the search index's embedder (PUT /api/settings/embeddings): a background task in the
 * server process re-embeds the whole index with the new embedder through the engine's public full build
 * (`fullSync` into a fresh generation of a second engine instance). Search keeps answering from the old generation
 * and the old embedder meanwhile; when the build commits, the choice is recorded (lib/search/embedders/choice.ts, so
 * the launcher's sync and any restart follow it) and the process's engine is swapped in one step. A failure aborts
 * the new generation: the old index and embedder stay, and the error is reported in the progress.
 */
import pg from "pg";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { createEmbedderById, recordEmbedderChoice } from "@/lib/search/embedders";
import { createSearchEngine, getSearch, replaceSearch } from "@/lib/search/engine";
import { fullSync } from "@/lib/search/sync";
import type { Embedder, SearchEngine } from "@/lib/search/types";

export interface ReembedProgress {
  state: "running" | "completed" | "failed";
  /** The embedder being switched to. */
  id: string;
  /** The embedder the index used when the switch started. */
  from: string;
  done: number;
  total: number;
  started_at: string;
  finished_at: string | null;
  /** Failure message (admins only in health), else null. */
  error: string | null;
}

// Next's dev server re-evaluates modules; keep the one task's progress on globalThis.
const g = globalThis as typeof globalThis & { __reembed?: { progress: ReembedProgress; done: Promise<void> } };

/** The current or last switch of this process, or null when none ran. */
export function reembedStatus(): ReembedProgress | null {
  return g.__reembed ? { ...g.__reembed.progress } : null;
}

/** Resolves when the running task (if any) has finished (tests). */
export function reembedSettled(): Promise<void> {
  return g.__reembed?.done ?? Promise.resolve();
}

export interface ReembedDeps {
  /** The embedder to build with (tests: a mock); default createEmbedderById(id). */
  embedder?: Embedder;
  /** The engine to build into (tests); default a new engine instance on the same index. */
  engine?: SearchEngine;
  databaseUrl?: string;
}

/**
 * Start switching to embedder `id`. Throws 422 EMBEDDER_UNAVAILABLE for an id this server does not offer and 409
 * REEMBED_IN_PROGRESS while a switch runs. Switching to the embedder already in use starts nothing.
 */
export function startReembed(id: string, deps: ReembedDeps = {}): ReembedProgress | null {
  let embedder: Embedder | null;
  try {
    embedder = deps.embedder ?? createEmbedderById(id);
  } catch (e) {
    // Offered but not buildable (a model without EMBEDDING_DIMENSIONS): a configuration problem, not a 500.
    throw new ApiError("EMBEDDER_UNAVAILABLE", `The embedder "${id.slice(0, 100)}" cannot be built: ${(e instanceof Error ? e.message : String(e)).slice(0, 200)}`);
  }
  if (!embedder || embedder.id !== id) throw new ApiError("EMBEDDER_UNAVAILABLE", `This server does not offer the embedder "${id.slice(0, 100)}".`);
  if (g.__reembed?.progress.state === "running") throw new ApiError("REEMBED_IN_PROGRESS");
  const current = getSearch();
  if (current.embedder.id === id && !deps.embedder) return reembedStatus();
  const databaseUrl = deps.databaseUrl ?? config().DATABASE_URL;
  if (!databaseUrl) throw new ApiError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: re-embedding reads the judgments directly.");

  const progress: ReembedProgress = {
    state: "running",
    id,
    from: current.embedder.id,
    done: 0,
    total: 0,
    started_at: new Date().toISOString(),
    finished_at: null,
    error: null,
  };
  const run = async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: config().UPSTREAM_TIMEOUT_MS });
    try {
      const engine = deps.engine ?? createSearchEngine(embedder);
      await fullSync(pool, {
        engine,
        embedder,
        onProgress: (p) => {
          progress.done = p.done;
          progress.total = p.total;
        },
      });
      // Order matters: the generation is committed, then recorded (other processes follow), then served here.
      recordEmbedderChoice(id);
      replaceSearch({ engine, embedder });
      progress.state = "completed";
    } catch (e) {
      progress.state = "failed";
      progress.error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
      logger.warn({ err: progress.error, id }, "embedder switch failed; the old index stays");
    } finally {
      progress.finished_at = new Date().toISOString();
      await pool.end().catch(() => undefined);
    }
  };
  g.__reembed = { progress, done: Promise.resolve() };
  g.__reembed.done = run();
  return reembedStatus();
}
