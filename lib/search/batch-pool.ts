/**
 * Rows → IndexBatch for a full build, off the main thread when it can be: with the lexical `local-hash` embedder two
 * worker threads (batch-worker.ts) take every batch of rows side by side, one embedding and chunking it (most of a
 * build's CPU), the other encoding its documents for the embedded engine (JSON, keyword postings, suggestions), while
 * the main thread appends the results to LanceDB, the postings stream and memory (the main thread
 * holds no full text and tokenises nothing). Other embedders (model providers: I/O bound) and workers that cannot
 * start (e.g. inside the bundled Next server) fall back to `buildIndexBatch` on this thread. Same index either way.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "./batch";
import { decodeChunks, type EncodedChunks } from "./chunk-columns";
import type { JudgmentRow } from "./document";
import { decodeDocuments, type EncodedDocs } from "./encoded-docs";
import { SuggestionMiner } from "./suggest-miner";
import { vectorRow } from "./vector-batch";
import type { ChunkRecord, Embedder, IndexBatch, IndexDocumentWithVector, Suggestion } from "./types";

export type WorkerRole = "vectors" | "documents";

export type BatchRequest = { id: number; rows: JudgmentRow[] } | { id: number; suggestions: true };

export type BatchReply =
  | { id: number; docVectors: Float64Array; encodedChunks: EncodedChunks }
  | { id: number; encodedDocs: EncodedDocs }
  | { id: number; suggestions: Suggestion[] }
  | { id: number; error: string }
  | { id: -1; ready: true };

/**
 * Rows → batches for one full build, and the suggestions mined from every document it built (suggest-miner.ts runs
 * where the documents are made, so the main thread holds none of its phrase counts).
 */
export interface BatchBuilder {
  build(rows: JudgmentRow[]): Promise<IndexBatch>;
  suggestions(): Promise<Suggestion[]>;
  close(): Promise<void>;
}

/** A batch of the worker's: documents and chunks decoded from their encodings only if an engine reads them. */
function encodedBatch(encodedDocs: EncodedDocs, encodedChunks: EncodedChunks, dim: number): IndexBatch {
  let documents: IndexDocumentWithVector[] | null = null;
  let chunks: ChunkRecord[] | null = null;
  return {
    encodedDocs,
    encodedChunks,
    get documents(): IndexDocumentWithVector[] {
      return (documents ??= decodeDocuments(encodedDocs));
    },
    get chunks(): ChunkRecord[] {
      return (chunks ??= decodeChunks(encodedChunks, dim));
    },
  };
}

function inThread(embedder: Embedder): BatchBuilder {
  const miner = new SuggestionMiner();
  return {
    build: async (rows) => {
      const batch = await buildIndexBatch(rows, embedder);
      for (const d of batch.documents) miner.add(d.document);
      return batch;
    },
    suggestions: async () => miner.result(),
    close: async () => undefined,
  };
}

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

/**
 * A batch's garbage (row strings, tokens, chunk texts: tens of MB) dies within the batch: a young generation that
 * holds it spares promoting it and the old-generation collections that follow (2x the demo corpus, one worker with
 * 192 MB: 10 % less wall time, docs/bench.md); 64 MB each keeps two workers' worth inside the 10x memory bound (128 MB
 * each reached it).
 */
const WORKER_YOUNG_GENERATION_MB = 64;

/** One batch worker: requests answered in order by id. */
interface BatchWorker {
  ask(req: Omit<BatchRequest, "id">): Promise<BatchReply>;
  close(): Promise<void>;
}

/** A started worker of the given role, or null when it cannot start. */
async function startWorker(role: WorkerRole, dimensions: number): Promise<BatchWorker | null> {
  let worker: Worker;
  try {
    worker = new Worker(workerBootstrap(), {
      eval: true,
      workerData: { dimensions, role },
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
  } catch {
    return null;
  }
  const waiting = new Map<number, { resolve: (m: BatchReply) => void; reject: (e: Error) => void }>();
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
      w.resolve(m);
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
    return null;
  }
  let nextId = 0;
  return {
    ask: (req) =>
      new Promise<BatchReply>((resolve, reject) => {
        if (failure) return reject(failure);
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, ...req } as BatchRequest);
      }),
    close: async () => {
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}

export async function batchBuilder(embedder: Embedder): Promise<BatchBuilder> {
  if (!(embedder instanceof LocalHashEmbedder) || process.env.SEARCH_BUILD_WORKER === "0") return inThread(embedder);
  const dim = embedder.dimensions;
  const [vectors, documents] = await Promise.all([startWorker("vectors", dim), startWorker("documents", dim)]);
  if (!vectors || !documents) {
    await Promise.all([vectors?.close(), documents?.close()]);
    return inThread(embedder);
  }
  return {
    build: async (rows) => {
      const [v, d] = await Promise.all([vectors.ask({ rows: rows.map(vectorRow) }), documents.ask({ rows })]);
      if (!("docVectors" in v) || !("encodedDocs" in d)) throw new Error("batch worker: unexpected reply");
      return encodedBatch({ ...d.encodedDocs, vectors: v.docVectors }, v.encodedChunks, dim);
    },
    suggestions: async () => {
      const m = await documents.ask({ suggestions: true });
      if (!("suggestions" in m)) throw new Error("batch worker: unexpected reply");
      return m.suggestions;
    },
    close: async () => {
      await Promise.all([vectors.close(), documents.close()]);
    },
  };
}
