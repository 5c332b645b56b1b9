/**
 * Opening a generation of the index into memory (docs/search.md "Opening the index"): from its snapshot when there
 * is a readable one, else by rebuilding from the documents table (and writing the snapshot for the next process);
 * then the log of incremental writes is replayed and the suggestions read.
 */
import type * as lancedb from "@lancedb/lancedb";
import type { IndexDocument } from "../types";
import { readDeltaFrom } from "./delta-log";
import { KeywordSegment } from "./keyword-segment";
import { LiveIndex, addToSegment, segmentBuilder } from "./live-index";
import { readSnapshot, writeSnapshot } from "./snapshot";
import type { SearchStore, StoreState } from "./store";
import { suggestionIndex } from "./suggestions";

export interface GenerationTables {
  docs: lancedb.Table;
  chunks: lancedb.Table;
}

/** A generation ready to serve: its in-memory state, its LanceDB tables and how many chunks they hold. */
export interface OpenedGeneration {
  live: LiveIndex;
  tables: GenerationTables;
  chunkCount: number;
  /** Bytes of the generation's delta log replayed into `live` (where the next catch-up reads from). */
  deltaEnd: number;
}

export async function openGeneration(store: SearchStore, state: StoreState, dimensions: number): Promise<OpenedGeneration> {
  const tables = await store.openTables(state.gen);
  const live = new LiveIndex(dimensions);
  const snapDir = store.snapshotDir(state.gen);
  const snap = await readSnapshot(snapDir, dimensions).catch(() => null);
  if (snap) {
    live.main = KeywordSegment.fromParts(snap.segment);
    live.adoptSnapshotDocs(snap);
  } else {
    // No snapshot (an index built before snapshots, or another format): rebuild from the documents table,
    // streamed in record batches so the full text of every judgment is never in memory at once.
    const builder = segmentBuilder();
    for await (const batch of tables.docs.query().select(["doc", "vector"])) {
      const docCol = batch.getChild("doc");
      const vecCol = batch.getChild("vector");
      for (let i = 0; i < batch.numRows; i++) {
        const doc = JSON.parse(String(docCol?.get(i))) as IndexDocument;
        const v = vecCol?.get(i) as { toArray(): Float32Array } | null;
        addToSegment(builder, doc);
        live.putDoc(doc, v ? v.toArray() : []);
      }
    }
    live.main = builder.build();
    live.prepareAnn();
    // Best effort: the next process opens from the snapshot (a read-only data dir just rebuilds every time).
    await writeSnapshot(snapDir, live.snapshot()).catch(() => undefined);
  }
  const delta = await readDeltaFrom(store.deltaLogPath(state.gen), 0);
  for (const entry of delta.entries) live.applyDelta(entry);
  live.rebuildDelta();
  live.suggestIndex = suggestionIndex(await store.readSuggestions(state.gen));
  const chunkCount = await tables.chunks.countRows();
  return { live, tables, chunkCount, deltaEnd: delta.end };
}
