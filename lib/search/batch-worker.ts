/**
 * Worker-thread side of `batchBuilder` (batch-pool.ts): a full build runs two of these on the same rows, so its work
 * spreads over the cores while the main thread only appends results to LanceDB, the postings stream and memory.
 *   - "vectors": documents' and chunks' lexical (`local-hash`) vectors and the chunks, encoded column by column
 *     (vector-batch.ts, chunk-columns.ts); the document vectors go back as one Float64Array (the exact doubles
 *     buildIndexBatch gives), the chunks' as another.
 *   - "documents": the documents encoded for the embedded engine (encoded-docs.ts: docs table columns, stored
 *     documents as one JSON text, keyword postings) and the phrase suggestions, asked for once at the end. One such
 *     worker serves one full build: its term ids and the ids it has seen span the build's batches, in order.
 * Everything is transferred, not copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { chunkBuffers } from "./chunk-columns";
import { toIndexDocument, type JudgmentRow } from "./document";
import { DocumentEncoder, encodedDocsBuffers } from "./encoded-docs";
import { SuggestionMiner } from "./suggest-miner";
import { VectorBatchEncoder } from "./vector-batch";
import type { BatchReply, BatchRequest, WorkerRole } from "./batch-pool";

const port = parentPort;
if (!port) throw new Error("batch-worker runs as a worker thread");
const { dimensions, role } = workerData as { dimensions: number; role: WorkerRole };
const encoder = role === "documents" ? new DocumentEncoder(dimensions) : null;
const miner = role === "documents" ? new SuggestionMiner() : null;
let vectorEncoder: VectorBatchEncoder | null = null;

// Requests are handled one at a time, in order (the encoder's term ids follow the batch order).
let queue: Promise<void> = Promise.resolve();

async function handle(req: BatchRequest): Promise<void> {
  const out = port as NonNullable<typeof port>;
  if ("suggestions" in req) {
    out.postMessage({ id: req.id, suggestions: miner ? miner.result() : [] } satisfies BatchReply);
    return;
  }
  const rows = req.rows as JudgmentRow[];
  if (encoder && miner) {
    const documents = rows.map(toIndexDocument);
    for (const d of documents) miner.add(d);
    // The vectors come from the "vectors" worker (batch-pool.ts puts them in).
    const encodedDocs = encoder.encodeDocuments(documents, new Float64Array(0));
    out.postMessage({ id: req.id, encodedDocs } satisfies BatchReply, encodedDocsBuffers(encodedDocs));
    return;
  }
  const { docVectors, encodedChunks } = (vectorEncoder ??= new VectorBatchEncoder(dimensions)).encode(rows);
  out.postMessage({ id: req.id, docVectors, encodedChunks } satisfies BatchReply, [
    docVectors.buffer as ArrayBuffer,
    ...chunkBuffers(encodedChunks),
  ]);
}

port.on("message", (req: BatchRequest) => {
  queue = queue.then(() =>
    handle(req).catch((e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) })),
  );
});
port.postMessage({ id: -1, ready: true });
