/**
 * Worker-thread side of `batchBuilder` (batch-pool.ts): rows → IndexBatch with the lexical `local-hash` embedder, so
 * a full build's embedding and chunking run on a second core while the main thread fills the index. Vectors go back
 * as one Float64Array per batch (the exact doubles `buildIndexBatch` computed) and chunks column by column
 * (chunk-columns.ts), all transferred, not copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LocalHashEmbedder } from "@/lib/llm/embedders/local-hash";
import { buildIndexBatch } from "./batch";
import { chunkBuffers, encodeChunks } from "./chunk-columns";
import type { JudgmentRow } from "./document";
import type { BatchReply, BatchRequest } from "./batch-pool";

const port = parentPort;
if (!port) throw new Error("batch-worker runs as a worker thread");
const embedder = new LocalHashEmbedder((workerData as { dimensions: number }).dimensions);

function pack(vectors: ReadonlyArray<ArrayLike<number>>, dim: number): Float64Array {
  const flat = new Float64Array(vectors.length * dim);
  for (let i = 0; i < vectors.length; i++) flat.set(vectors[i], i * dim);
  return flat;
}

port.on("message", (req: BatchRequest) => {
  buildIndexBatch(req.rows as JudgmentRow[], embedder).then(
    (batch) => {
      const dim = embedder.dimensions;
      const docVectors = pack(
        batch.documents.map((d) => d.vector),
        dim,
      );
      const encodedChunks = encodeChunks(batch.chunks, dim);
      const reply: BatchReply = {
        id: req.id,
        documents: batch.documents.map((d) => d.document),
        docVectors,
        encodedChunks,
      };
      // Fresh (non-shared) buffers: transferable.
      port.postMessage(reply, [docVectors.buffer as ArrayBuffer, ...chunkBuffers(encodedChunks)]);
    },
    (e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? e.stack ?? e.message : String(e) }),
  );
});
port.postMessage({ id: -1, ready: true });
