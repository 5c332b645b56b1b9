/**
 * The full build's encoded batches (lib/search/encoded-docs.ts): the batch worker tokenises, makes
 * the JSON and mines the suggestions, and the main thread only appends what it is given. The index must be the one
 * the main thread alone builds from plain batches, byte for byte.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { batchBuilder } from "@/lib/search/batch-pool";
import { toIndexDocument, type JudgmentRow } from "@/lib/search/document";
import { DocumentEncoder, decodeDocuments, storedDocuments } from "@/lib/search/encoded-docs";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { addToSegment, segmentBuilder } from "@/lib/search/lancedb/live-index";
import { SuggestionMiner } from "@/lib/search/suggest-miner";
import type { IndexBatch } from "@/lib/search/types";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";

const rows = Array.from({ length: 45 }, (_, i) => generateJudgment(DEFAULT_CORPUS_SEED, i) as unknown as JudgmentRow);
// Three batches; the last repeats a judgment of the first (a full build indexes the first one it meets).
const batches = [rows.slice(0, 15), rows.slice(15, 30), [...rows.slice(30), rows[3]]];
const embedder = new LocalHashEmbedder();
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "encoded-build-"));
  dirs.push(d);
  return d;
}

/** Every file of the generation's snapshot (meta.json without its time), by name. */
function snapshotFiles(dir: string): Record<string, string> {
  const kw = fs.readdirSync(dir).filter((f) => /^keyword-\d+$/.test(f));
  expect(kw).toHaveLength(1);
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(path.join(dir, kw[0])).sort()) {
    const bytes = fs.readFileSync(path.join(dir, kw[0], f));
    out[f] = f === "meta.json" ? JSON.stringify({ ...JSON.parse(bytes.toString("utf8")), writtenAt: null }) : bytes.toString("base64");
  }
  return out;
}

describe("encoded batches of the full build", () => {
  it("SegmentBuilder.addEncoded makes the segment add() makes", () => {
    const docs = rows.map(toIndexDocument);
    const plain = segmentBuilder();
    for (const d of docs) addToSegment(plain, d);
    const encoded = segmentBuilder();
    const encoder = new DocumentEncoder(embedder.dimensions);
    for (const part of [docs.slice(0, 20), docs.slice(20)]) {
      const e = encoder.encode(part.map((document) => ({ document, vector: new Float64Array(embedder.dimensions) })));
      encoded.addEncoded(
        part.map((d) => d.id),
        e.postings,
      );
    }
    expect(encoded.build().parts()).toEqual(plain.build().parts());
  });

  it("decodes to the documents and vectors it encoded; stored documents lack full_text", async () => {
    const batch = await buildIndexBatch(rows.slice(0, 5), embedder);
    const e = new DocumentEncoder(embedder.dimensions).encode(batch.documents);
    const back = decodeDocuments(e);
    expect(back.map((d) => ({ document: d.document, vector: Array.from(d.vector) }))).toEqual(
      batch.documents.map((d) => ({ document: d.document, vector: Array.from(d.vector) })),
    );
    const stored = storedDocuments<Record<string, unknown>>(e.stored);
    expect(stored.map((d) => d.id)).toEqual(batch.documents.map((d) => d.document.id));
    expect(stored.every((d) => !("full_text" in d))).toBe(true);
  });

  it("an index built from the worker's batches is byte-identical to one built from plain batches", async () => {
    // Worker batches, suggestions mined in the worker.
    const viaWorker = tempDir();
    const a = new LanceDbEngine({ dir: viaWorker, embedder });
    const builder = await batchBuilder(embedder);
    try {
      const session = await a.sync.beginFull();
      for (const b of batches) {
        const batch = await builder.build(b);
        // Really built in the worker: documents came back encoded.
        expect(batch.encodedDocs?.count).toBe(b.length);
        await session.add(batch);
      }
      await session.commit({ suggestions: await builder.suggestions() });
    } finally {
      await builder.close();
      await a.close();
    }
    // Plain batches on this thread, suggestions mined here.
    const plain = tempDir();
    const b = new LanceDbEngine({ dir: plain, embedder });
    try {
      const session = await b.sync.beginFull();
      const miner = new SuggestionMiner();
      for (const rowsOf of batches) {
        const batch = await buildIndexBatch(rowsOf, embedder);
        for (const d of batch.documents) miner.add(d.document);
        await session.add(batch);
      }
      await session.commit({ suggestions: miner.result() });
    } finally {
      await b.close();
    }
    const suggest = (dir: string) => fs.readFileSync(path.join(dir, fs.readdirSync(dir).find((f) => f.startsWith("suggest-")) as string), "utf8");
    expect(suggest(viaWorker)).toBe(suggest(plain));
    const files = snapshotFiles(viaWorker);
    expect(Object.keys(files)).toContain("post-doc.u32");
    expect(files).toEqual(snapshotFiles(plain));
    // The repeated judgment is counted in the tables, kept once in memory.
    const docsJson = JSON.parse(Buffer.from(files["docs.json"], "base64").toString("utf8")) as unknown[];
    expect(docsJson).toHaveLength(rows.length);
  });

  it("refuses a build that mixes plain and encoded batches", async () => {
    const e = new LanceDbEngine({ dir: tempDir(), embedder });
    const builder = await batchBuilder(embedder);
    try {
      const session = await e.sync.beginFull();
      await session.add(await buildIndexBatch(batches[0], embedder));
      const encoded: IndexBatch = await builder.build(batches[1]);
      await expect(session.add(encoded)).rejects.toThrow(/one encoder/);
      await session.abort();
    } finally {
      await builder.close();
      await e.close();
    }
  });
});
