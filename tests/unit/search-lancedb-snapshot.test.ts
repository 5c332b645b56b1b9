/**
 * The LanceDB adapter's on-disk snapshot (lib/search/lancedb/snapshot.ts): a fresh process opens a generation from
 * the snapshot written by the full build, replays incremental writes made by another process from the delta log,
 * and falls back to rebuilding from the documents table when the snapshot is missing or of another format.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { readJsonArray, SNAPSHOT_FORMAT, writeJsonArray } from "@/lib/search/lancedb/snapshot";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { SuggestionMiner } from "@/lib/search/suggest-miner";
import type { SearchDocumentsRequest, SearchEngine } from "@/lib/search/types";
import { F, FIXTURE_COUNT, FIXTURE_ROWS } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-snapshot-"));
const engines: SearchEngine[] = [];
const open = () => {
  const e = new LanceDbEngine({ dir, embedder });
  engines.push(e);
  return e;
};
const QUERIES: Array<Partial<SearchDocumentsRequest> & { q: string }> = [
  { q: "kitchen knife" },
  { q: "manslaugter" },
  { q: "rob" },
  { q: "zabojstwo" },
  { q: "sentence", attributesToSearchOn: ["title"] },
  { q: "appeal", semanticRatio: 0.5 },
];
const page = async (e: SearchEngine, req: Partial<SearchDocumentsRequest> & { q: string }) =>
  (await e.searchDocuments({ limit: 20, offset: 0, attributesToHighlight: ["title"], ...req })).hits.map((h) => [
    h.document.id,
    h.score.toFixed(6),
    h.formatted?.title,
  ]);
const snapshotDirs = () => fs.readdirSync(dir).filter((f) => /^keyword-\d+$/.test(f));

let writer: SearchEngine;
let expected: unknown[];

beforeAll(async () => {
  writer = open();
  const batch = await buildIndexBatch(FIXTURE_ROWS, embedder);
  const miner = new SuggestionMiner();
  for (const d of batch.documents) miner.add(d.document);
  const session = await writer.sync.beginFull();
  await session.add(batch);
  await session.commit({ suggestions: miner.result() });
  expected = await Promise.all(QUERIES.map((q) => page(writer, q)));
});

afterAll(async () => {
  for (const e of engines) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("LanceDB snapshot", () => {
  it("is written by the full build and opened by a fresh engine with identical results", async () => {
    expect(snapshotDirs()).toHaveLength(1);
    const reader = open();
    expect(await Promise.all(QUERIES.map((q) => page(reader, q)))).toEqual(expected);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT);
    expect((await reader.suggest({ q: "sent", limit: 5 })).suggestions.length).toBeGreaterThan(0);
  });

  it("replays incremental upserts and deletes made by another engine", async () => {
    const row = { ...FIXTURE_ROWS[5], title: "R v White: supply of class A drugs and xylophone theft" };
    await writer.sync.upsert(await buildIndexBatch([row], embedder));
    await writer.sync.delete([F.smith]);
    const reader = open();
    const hits = (await reader.searchDocuments({ q: "xylophone", limit: 5, offset: 0 })).hits;
    expect(hits.map((h) => h.document.id)).toEqual([F.white]);
    expect(await reader.getDocuments([F.smith])).toEqual([]);
    const knife = await reader.searchDocuments({ q: "kitchen knife", limit: 20, offset: 0 });
    expect(knife.hits.map((h) => h.document.id)).not.toContain(F.smith);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT - 1);
    expect((await reader.similar({ id: F.white, limit: 3 })).hits.length).toBeGreaterThan(0);
  });

  it("rebuilds from the documents table when the snapshot is missing, and writes it again", async () => {
    // Same matches; scores may differ slightly, since a rebuild folds the logged upserts into the main segment's
    // statistics (like a Lucene merge) where the replay keeps them in the delta segment.
    const matched = async (e: SearchEngine) =>
      Promise.all(QUERIES.map(async (q) => (await page(e, q)).map((h) => h[0]).sort()));
    const before = await matched(open());
    for (const d of snapshotDirs()) fs.rmSync(path.join(dir, d), { recursive: true });
    expect(await matched(open())).toEqual(before);
    expect(snapshotDirs()).toHaveLength(1);
    expect((await open().searchDocuments({ q: "xylophone", limit: 5, offset: 0 })).hits).toHaveLength(1);
  });

  it("ignores a snapshot of another format version", async () => {
    const [snap] = snapshotDirs();
    const metaFile = path.join(dir, snap, "meta.json");
    const meta = JSON.parse(fs.readFileSync(metaFile, "utf8")) as { format: number; documents: number };
    fs.writeFileSync(metaFile, JSON.stringify({ ...meta, format: SNAPSHOT_FORMAT - 1, documents: 0 }));
    const e = open();
    expect((await e.health()).documents).toBe(FIXTURE_COUNT - 1);
    expect(JSON.parse(fs.readFileSync(metaFile, "utf8")).format).toBe(SNAPSHOT_FORMAT);
  });

  it("an engine writes into the generation another process built after it loaded, never back into its old one", async () => {
    const state = () => JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { gen: number; rev?: number };
    const stale = open();
    expect((await stale.health()).documents).toBe(FIXTURE_COUNT - 1); // loaded: the generation of the first build
    const before = state().gen;
    // Another process (the sync CLI's full build) replaces the generation.
    const builder = open();
    const session = await builder.sync.beginFull();
    await session.add(await buildIndexBatch(FIXTURE_ROWS, embedder));
    await session.commit({ suggestions: [] });
    const rebuilt = state().gen;
    expect(rebuilt).not.toBe(before);
    // The engine that loaded the old generation writes without a query in between (the worker's incremental sync).
    const row = { ...FIXTURE_ROWS[5], title: "R v White: theft of a zither" };
    await stale.sync.upsert(await buildIndexBatch([row], embedder));
    expect(state().gen).toBe(rebuilt);
    const fresh = open();
    expect((await fresh.searchDocuments({ q: "zither", limit: 5, offset: 0 })).hits.map((h) => h.document.id)).toEqual([F.white]);
    expect((await fresh.health()).documents).toBe(FIXTURE_COUNT); // the rebuild's documents, the write among them
  });
});

describe("writeJsonArray / readJsonArray (docs.json, written and read in slices)", () => {
  it("writes valid JSON with one item per line and reads back exactly the array, for any text", async () => {
    const file = path.join(dir, "array.json");
    const doc = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ unit: "grapheme", maxLength: 50 }), fc.integer(), fc.constant(null)));
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { maxLength: 30 }), async (docs) => {
        await writeJsonArray(file, docs);
        const text = fs.readFileSync(file, "utf8");
        expect(JSON.parse(text)).toEqual(docs);
        // Every raw newline is between items: the lines are "[", one item each, "]".
        expect(text.split("\n")).toHaveLength(docs.length === 0 ? 3 : docs.length + 2);
        expect(await readJsonArray(file)).toEqual(docs);
      }),
      { numRuns: 200 },
    );
    // Many 1 MB write slices and 8 MB read slices, lines cut by a read slice, non-Latin-1 text, newlines inside strings,
    // and what JSON writes as null inside an array.
    const big = Array.from({ length: 30_000 }, (_, i) => ({ id: String(i), title: `zabójstwo\n${"ż".repeat(400)} ${i}` }));
    const mixed: unknown[] = [...big, undefined, () => 1, { last: true }];
    await writeJsonArray(file, mixed);
    expect(fs.statSync(file).size).toBeGreaterThan(2 * (8 << 20));
    const expected = JSON.parse(JSON.stringify(mixed)) as unknown[];
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(expected);
    expect(await readJsonArray(file)).toEqual(expected);
  });

  it("reads the older layout (the whole array on one line) and refuses a file cut short", async () => {
    const file = path.join(dir, "array.json");
    const docs = [{ id: "1", title: "a,\nb" }, { id: "2", title: "ż" }];
    fs.writeFileSync(file, JSON.stringify(docs));
    expect(await readJsonArray(file)).toEqual(docs);
    await writeJsonArray(file, docs);
    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, whole.length - 2));
    await expect(readJsonArray(file)).rejects.toThrow(/not closed/);
    fs.writeFileSync(file, Buffer.concat([whole, Buffer.from("\n{}")]));
    await expect(readJsonArray(file)).rejects.toThrow(/after the end/);
  });
});
