/**
 * Rows → IndexBatch for a full build, off the main thread when it can be: with the lexical `local-hash` embedder the
 * embedding and chunking (most of a build's CPU) run in one worker thread (batch-worker.ts) while the main thread
 * fills the keyword index and LanceDB (chunks reach it as Arrow-ready columns, see chunk-columns.ts), so a 2-core
 * machine uses both cores. Other embedders (model providers: I/O bound) and a worker that cannot start (e.g. inside
 * the bundled Next server) fall back to `buildIndexBatch` on this thread. Same batches either way.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { LocalHashEmbedder } from "@/lib/llm/embedders/local-hash";
import { buildIndexBatch } from "./batch";
import { decodeChunks, type EncodedChunks } from "./chunk-columns";
import type { JudgmentRow } from "./document";
import type { ChunkRecord, Embedder, IndexBatch, IndexDocument } from "./types";

export interface BatchRequest {
  id: number;
  rows: JudgmentRow[];
}

export type BatchReply =
  | {
      id: number;
      documents: IndexDocument[];
      /** documents.length × dimensions, row-major. */
      docVectors: Float64Array;
      encodedChunks: EncodedChunks;
    }
  | { id: number; error: string }
  | { id: -1; ready: true };

export interface BatchBuilder {
  build(rows: JudgmentRow[]): Promise<IndexBatch>;
  close(): Promise<void>;
}

const inThread = (embedder: Embedder): BatchBuilder => ({
  build: (rows) => buildIndexBatch(rows, embedder),
  close: async () => undefined,
});

/**
 * The worker's entry is TypeScript: a small CommonJS bootstrap registers tsx's require hook (the launcher, the CLI,
 * the benches and vitest all have tsx; Node 20's --import loader hooks do not reach a worker's own entry).
 */
function workerBootstrap(): string {
  // From the working directory (every launcher, bench and test runs at the repository root), not import.meta: a module
  // using import.meta is treated as ESM by Playwright's CommonJS transform, which then fails to load it. A missing
  // file fails the worker's start, and the build falls back to this thread.
  const entry = path.resolve("lib/search/batch-worker.ts");
  return `require("tsx/cjs"); require(${JSON.stringify(entry)});`;
}

/** Vectors as views into the transferred arrays (no per-vector JS array on the main thread). */
function rows(flat: Float64Array, n: number, dim: number): Float64Array[] {
  const out = new Array<Float64Array>(n);
  for (let i = 0; i < n; i++) out[i] = flat.subarray(i * dim, (i + 1) * dim);
  return out;
}

export async function batchBuilder(embedder: Embedder): Promise<BatchBuilder> {
  if (!(embedder instanceof LocalHashEmbedder) || process.env.SEARCH_BUILD_WORKER === "0") return inThread(embedder);
  const dim = embedder.dimensions;
  let worker: Worker;
  try {
    worker = new Worker(workerBootstrap(), { eval: true, workerData: { dimensions: dim } });
  } catch {
    return inThread(embedder);
  }
  const waiting = new Map<number, { resolve: (b: IndexBatch) => void; reject: (e: Error) => void }>();
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  const ready = new Promise<boolean>((resolve) => {
    worker.on("message", (m: BatchReply) => {
      if ("ready" in m) return resolve(true);
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if ("error" in m) return w.reject(new Error(`batch worker: ${m.error}`));
      const docVectors = rows(m.docVectors, m.documents.length, dim);
      const encodedChunks = m.encodedChunks;
      let chunks: ChunkRecord[] | null = null;
      w.resolve({
        documents: m.documents.map((document, i) => ({ document, vector: docVectors[i] })),
        encodedChunks,
        // Decoded only for an engine that reads the records (the LanceDB full build writes the columns).
        get chunks(): ChunkRecord[] {
          return (chunks ??= decodeChunks(encodedChunks, dim));
        },
      });
    });
    worker.on("error", (e) => {
      resolve(false);
      fail(e);
    });
    worker.on("exit", (code) => {
      resolve(false);
      fail(new Error(`batch worker exited (${code})`));
    });
  });
  if (!(await ready)) {
    await worker.terminate();
    return inThread(embedder);
  }
  let nextId = 0;
  return {
    build: (batchRows) =>
      new Promise<IndexBatch>((resolve, reject) => {
        if (failure) return reject(failure);
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, rows: batchRows } satisfies BatchRequest);
      }),
    close: async () => {
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}
