/**
 * A full sync session: a fresh generation's LanceDB tables are filled batch by batch while its in-memory index is
 * built from the same batches, encoded once (encoded-docs.ts: by the batch worker, or here for plain batches);
 * commit writes the suggestions and the snapshot, then names the generation in state.json and hands it to the engine
 * without re-reading the tables.
 */
import path from "node:path";
import { encodeChunks, utf8At, type Utf8Parts } from "../chunk-columns";
import type { Embedder, FullSyncOptions, FullSyncSession, SyncCounts } from "../types";
import type { GenerationTables } from "./generation";
import { INDEX_LAYOUT } from "../index-settings";
import { DocumentEncoder, storedDocuments } from "../encoded-docs";
import { LiveIndex, segmentBuilder, type StoredDoc } from "./live-index";
import { writeSnapshot } from "./snapshot";
import { encodedChunksTable, encodedDocsTable, type SearchStore, type StoreState } from "./store";
import { suggestionIndex } from "./suggestions";

export interface FullBuildHost {
  store: SearchStore;
  embedder: Embedder;
  /** Runs the commit under the engine's write lock. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Swap the committed generation in (after state.json names it, before older generations are dropped). */
  adopt(live: LiveIndex, tables: GenerationTables, state: StoreState, chunkCount: number): void;
  /** Releases the folder's write lock the build holds (write-lock.ts): called once, after commit or abort. */
  release(): Promise<void>;
}

export async function beginFullBuild(host: FullBuildHost, gen: number, options: FullSyncOptions = {}): Promise<FullSyncSession> {
  const { store, embedder } = host;
  const dim = embedder.dimensions;
  let tables: GenerationTables;
  try {
    tables = await store.createTables(gen, dim);
  } catch (e) {
    await store.dropGeneration(gen).catch(() => undefined);
    throw e;
  }
  const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
  let done = false;
  const fresh = new LiveIndex(dim);
  if (options.expectedDocuments) fresh.reserveVectors(options.expectedDocuments);
  // The postings stream waits on disk until commit (named like a temporary snapshot, so dropGenerations clears a
  // crashed build's file).
  const builder = segmentBuilder(path.join(store.dir, `keyword-${gen}.tmp-postings-${process.pid}`));
  // Plain batches (no worker) are encoded here, as the worker encodes its own; one build takes one kind (term ids and
  // the ids seen so far belong to one encoder).
  let local: DocumentEncoder | null = null;
  // The stored documents stay one UTF-8 JSON text per batch until commit. Parsed as they arrived, they made the main
  // heap grow to ~1.2 GB over a 10x build, and every major GC marked all of it: V8 starts one per ~64 MB of new
  // external memory (the batches' buffers), about one a second, so the build's GC cost grew with the square of its
  // size (a third of its CPU at 10x). A byte buffer is marked in one step however long it is.
  const storedBatches: Array<Utf8Parts | null> = [];
  let workerEncoded: boolean | null = null;
  return {
    add: async (batch) => {
      if (done) throw new Error("sync session already finished");
      const fromWorker = batch.encodedDocs !== undefined;
      if (workerEncoded !== null && workerEncoded !== fromWorker) throw new Error("a full build takes its batches from one encoder");
      workerEncoded = fromWorker;
      const docs = batch.encodedDocs ?? (local ??= new DocumentEncoder(dim)).encode(batch.documents);
      const chunks = batch.encodedChunks ?? encodeChunks(batch.chunks, dim);
      // LanceDB writes on its own threads: fill the keyword index and memory meanwhile, then wait for both.
      const writes = Promise.all([
        docs.count > 0 ? tables.docs.add(encodedDocsTable(docs, dim)) : null,
        chunks.count > 0 ? tables.chunks.add(encodedChunksTable(chunks, dim)) : null,
      ]);
      writes.catch(() => undefined); // awaited below; this only keeps a failure meanwhile from going unhandled
      const ids: string[] = [];
      for (let i = 0; i < docs.count; i++) {
        if (docs.fresh[i] !== 1) continue;
        const id = utf8At(docs.id, i) ?? "";
        ids.push(id);
        fresh.putVector(id, docs.vectors.subarray(i * dim, (i + 1) * dim));
      }
      builder.addEncoded(ids, docs.postings);
      storedBatches.push(docs.stored);
      await writes;
      counts.documents += docs.count;
      counts.chunks += chunks.count;
      options.onProgress?.({ ...counts });
    },
    commit: ({ suggestions }) => {
      if (done) return Promise.reject(new Error("sync session already finished"));
      done = true;
      return host.exclusive(async () => {
        const state: StoreState = {
          gen,
          embedder: { id: embedder.id, dimensions: dim },
          builtAt: new Date().toISOString(),
          layout: INDEX_LAYOUT,
        };
        await store.writeSuggestions(gen, suggestions);
        // Before the segment is built: its arrays (the largest) are not held beside the texts and the documents.
        for (let b = 0; b < storedBatches.length; b++) {
          const stored = storedBatches[b];
          storedBatches[b] = null; // each text can go once parsed: the documents and the texts are never both whole
          if (stored) for (const d of storedDocuments<StoredDoc>(stored)) fresh.putStoredDoc(d);
        }
        try {
          fresh.main = builder.build();
        } finally {
          builder.dispose(); // a build that failed half-way leaves no spill file (abort() does nothing after commit)
        }
        fresh.suggestIndex = suggestionIndex(suggestions);
        // The approximate vector index past its threshold (ann.ts), in the snapshot so no serving process trains it.
        fresh.prepareAnn();
        // The snapshot is complete before state.json names the generation: a process opening it never rebuilds.
        await writeSnapshot(store.snapshotDir(gen), fresh.snapshot());
        const chunkCount = await tables.chunks.countRows();
        await store.writeState(state);
        host.adopt(fresh, tables, state, chunkCount);
        await store.dropGenerations(gen);
        return { ...counts };
      }).finally(() => host.release());
    },
    abort: async () => {
      if (done) return;
      done = true;
      try {
        builder.dispose();
        await store.dropGeneration(gen);
      } finally {
        await host.release();
      }
    },
  };
}
