/**
 * L10 / reliability row 30: a writer that crashed mid-append leaves a torn last line in
 * `delta-<gen>.jsonl`. The next append must start on a fresh line, so the torn fragment is skipped on replay and the
 * appended entry is not swallowed with it (before the fix the two became one unparseable line and the entry was lost).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { appendDelta, readDelta, readDeltaFrom } from "@/lib/search/lancedb/delta-log";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import type { SearchEngine } from "@/lib/search/types";
import { F, FIXTURE_COUNT, FIXTURE_ROWS } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-recovery-delta-"));
const engines: SearchEngine[] = [];
const open = () => {
  const e = new LanceDbEngine({ dir, embedder });
  engines.push(e);
  return e;
};

afterAll(async () => {
  for (const e of engines) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("delta log with a torn last line", () => {
  it("appendDelta starts on a fresh line, so readDelta skips the torn fragment and keeps the new entry", async () => {
    const file = path.join(dir, "unit.jsonl");
    await appendDelta(file, { op: "delete", ids: ["a"] });
    // A crash in the middle of the second append.
    fs.appendFileSync(file, '{"op":"delete","ids":["b"');
    await appendDelta(file, { op: "delete", ids: ["c"] });
    expect(await readDelta(file)).toEqual([
      { op: "delete", ids: ["a"] },
      { op: "delete", ids: ["c"] },
    ]);
    // An intact file gets no blank lines.
    const clean = path.join(dir, "clean.jsonl");
    await appendDelta(clean, { op: "delete", ids: ["x"] });
    await appendDelta(clean, { op: "delete", ids: ["y"] });
    expect(fs.readFileSync(clean, "utf8")).toBe('{"op":"delete","ids":["x"]}\n{"op":"delete","ids":["y"]}\n');
  });

  it("readDeltaFrom reads the tail from an offset and leaves a line without its newline for the next read", async () => {
    const file = path.join(dir, "tail.jsonl");
    await appendDelta(file, { op: "delete", ids: ["a"] });
    const first = await readDeltaFrom(file, 0);
    expect(first).toEqual({ entries: [{ op: "delete", ids: ["a"] }], end: fs.statSync(file).size });
    // A line being written (or torn by a crash): not read, and the offset stays before it.
    fs.appendFileSync(file, '{"op":"delete","ids":["b"');
    expect(await readDeltaFrom(file, first.end)).toEqual({ entries: [], end: first.end });
    await appendDelta(file, { op: "delete", ids: ["c"] });
    const second = await readDeltaFrom(file, first.end);
    expect(second).toEqual({ entries: [{ op: "delete", ids: ["c"] }], end: fs.statSync(file).size });
    expect(await readDeltaFrom(file, second.end)).toEqual({ entries: [], end: second.end });
    expect(await readDeltaFrom(path.join(dir, "missing.jsonl"), 0)).toEqual({ entries: [], end: 0 });
  });

  it("a fresh engine replays the entry appended after a torn line", async () => {
    const writer = open();
    const session = await writer.sync.beginFull();
    await session.add(await buildIndexBatch(FIXTURE_ROWS, embedder));
    await session.commit({ suggestions: [] });
    const logs = () => fs.readdirSync(dir).filter((f) => /^delta-\d+\.jsonl$/.test(f));
    // The first upsert creates the log; then a crashed writer tears the next line.
    await writer.sync.delete([F.jones]);
    const [log] = logs();
    expect(log).toBeDefined();
    fs.appendFileSync(path.join(dir, log), '{"op":"upsert","documents":[{"document":{"id":"torn');
    const row = { ...FIXTURE_ROWS[5], title: "R v White: supply of class A drugs and xylophone theft" };
    await writer.sync.upsert(await buildIndexBatch([row], embedder));

    const reader = open();
    const hits = (await reader.searchDocuments({ q: "xylophone", limit: 5, offset: 0 })).hits;
    expect(hits.map((h) => h.document.id)).toEqual([F.white]);
    expect(await reader.getDocuments([F.jones])).toEqual([]);
    expect((await reader.health()).documents).toBe(FIXTURE_COUNT - 1);
  });
});
