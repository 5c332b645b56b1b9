/**
 * The LanceDB adapter's writer/reader protocol across processes (docs/search.md, "Incremental writes"): a process
 * that only writes (the import CLI's closing sync) never loads the generation into memory; a process serving queries
 * catches up with another process's incremental writes from the delta log's tail (no reopening of the generation),
 * hears of them without waiting for a query, and a full build by another process still replaces the generation.
 * Each engine instance stands for one process.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LiveIndex, addToSegment, segmentBuilder } from "@/lib/search/lancedb/live-index";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import type { SearchEngine } from "@/lib/search/types";
import { F, FIXTURE_COUNT, FIXTURE_ROWS } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-catchup-"));
const engines: SearchEngine[] = [];
const open = () => {
  const e = new LanceDbEngine({ dir, embedder });
  engines.push(e);
  return e;
};
/** What an engine holds in memory (private: the protocol's point is what is, and is not, loaded). */
const memory = (e: SearchEngine) => e as unknown as { live: { main: unknown; docs: Map<string, unknown> }; loaded: boolean; state: { gen: number; rev?: number } | null };
const disk = () => JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { gen: number; rev?: number };
const ids = async (e: SearchEngine, q: string) => (await e.searchDocuments({ q, limit: 10, offset: 0 })).hits.map((h) => h.document.id);

async function until(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  const builder = open();
  const session = await builder.sync.beginFull();
  await session.add(await buildIndexBatch(FIXTURE_ROWS, embedder));
  await session.commit({ suggestions: [] });
});

afterAll(async () => {
  for (const e of engines) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("LanceDB incremental writes across processes", () => {
  it("a process that only writes never loads the generation into memory", async () => {
    const writer = open();
    const row = { ...FIXTURE_ROWS[5], title: "R v White: theft of an ocarina" };
    const before = disk().rev ?? 0;
    expect(await writer.sync.upsert(await buildIndexBatch([row], embedder))).toMatchObject({ documents: 1 });
    expect(await writer.sync.delete([F.jones, "00000000-0000-4000-8000-999999999999"])).toMatchObject({ deleted: 1 });
    expect(memory(writer).loaded).toBe(false);
    expect(memory(writer).live.docs.size).toBe(0);
    expect(disk().rev).toBe(before + 2);
    // The late-commit check reads versions from the table, still without loading anything.
    const versions = await writer.sync.indexedVersions([F.white, F.jones]);
    expect([...versions.keys()]).toEqual([F.white]);
    expect(memory(writer).loaded).toBe(false);
    const reader = open();
    expect(await ids(reader, "ocarina")).toEqual([F.white]);
    expect(await reader.getDocuments([F.jones])).toEqual([]);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT - 1);
    const [white] = await reader.getDocuments([F.white], ["id", "updated_at"]);
    expect(typeof white.updated_at).toBe("string");
    expect(versions.get(F.white)).toBe(white.updated_at);
    // A serving process answers from memory, the same versions.
    expect(await reader.sync.indexedVersions([F.white, F.jones])).toEqual(versions);
  });

  it("a serving process catches up from the delta log without reopening the generation, and without a query", async () => {
    const reader = open();
    expect(await ids(reader, "kitchen knife")).toContain(F.smith);
    const main = memory(reader).live.main;
    const writer = open();
    const row = { ...FIXTURE_ROWS[6], title: "R v Black: the harpsichord case", full_text: `${String(FIXTURE_ROWS[6].full_text)} A harpsichord was found.` };
    await writer.sync.upsert(await buildIndexBatch([row], embedder));
    await writer.sync.delete([F.smith]);
    const rev = disk().rev;
    // No call into the reader: the state.json watcher (or, without one, the next query) brings it up to date.
    await until(() => memory(reader).state?.rev === rev);
    expect(memory(reader).live.main).toBe(main);
    expect(await ids(reader, "harpsichord")).toEqual([F.black]);
    expect(await ids(reader, "kitchen knife")).not.toContain(F.smith);
    expect(await reader.getDocuments([F.smith])).toEqual([]);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT - 2);
    // Chunk search reads the LanceDB table: the handle follows the other process's writes.
    const chunks = await reader.searchChunks({ query: "harpsichord", limit: 50 });
    expect(chunks.hits.some((h) => h.judgmentId === F.black && h.text.includes("harpsichord"))).toBe(true);
    expect(chunks.hits.some((h) => h.judgmentId === F.smith)).toBe(false);
  });

  it("a full build by another process still replaces the generation; writers and readers follow it", async () => {
    const reader = open();
    await ids(reader, "kitchen knife");
    const writer = open();
    await writer.sync.upsert(await buildIndexBatch([{ ...FIXTURE_ROWS[7], title: "R v Gray: a theremin" }], embedder));
    const old = disk().gen;
    const builder = open();
    const session = await builder.sync.beginFull();
    await session.add(await buildIndexBatch(FIXTURE_ROWS, embedder));
    await session.commit({ suggestions: [] });
    expect(disk().gen).not.toBe(old);
    // The writer loaded nothing and held the old generation's tables: it writes into the new one.
    await writer.sync.upsert(await buildIndexBatch([{ ...FIXTURE_ROWS[8], title: "R v Cole: a glockenspiel" }], embedder));
    expect(disk().gen).not.toBe(old);
    await until(() => memory(reader).state?.gen === disk().gen && memory(reader).state?.rev === disk().rev);
    expect(await ids(reader, "glockenspiel")).toEqual([F.cole]);
    // The rebuild's documents: the theremin write predates it and is gone, the deleted judgments are back.
    expect(await ids(reader, "theremin")).toEqual([]);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT);
  });
});

describe("the first write into an empty store", () => {
  it("starts a generation and holds the documents (it used to wait forever for the write lock it held)", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "search-empty-"));
    const e = new LanceDbEngine({ dir: empty, embedder });
    try {
      expect(await e.sync.upsert(await buildIndexBatch(FIXTURE_ROWS.slice(0, 2), embedder))).toMatchObject({ documents: 2 });
      expect((await e.health()).documents).toBe(2);
    } finally {
      await e.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("the delta segment rebuilt from kept postings", () => {
  it("is the segment a fresh build over the same documents makes, after upserts, replacements and deletes", async () => {
    const batch = await buildIndexBatch(FIXTURE_ROWS, embedder);
    const live = new LiveIndex(embedder.dimensions);
    const fresh = () => {
      const b = segmentBuilder();
      for (const d of live.deltaDocs.values()) addToSegment(b, d);
      return b.build().parts();
    };
    const steps = [
      { op: "upsert" as const, documents: batch.documents.slice(0, 5) },
      { op: "upsert" as const, documents: batch.documents.slice(5, 9) },
      { op: "delete" as const, ids: [F.smith, F.gray] },
      { op: "upsert" as const, documents: [{ ...batch.documents[2], document: { ...batch.documents[2].document, title: "R v Patel: a bassoon" } }] },
      { op: "upsert" as const, documents: batch.documents.slice(9) },
    ];
    for (const step of steps) {
      live.applyDelta(step);
      live.rebuildDelta();
      expect(live.delta?.parts()).toEqual(fresh());
    }
    expect(live.delta?.parts().vocab).toContain("bassoon");
  });
});
