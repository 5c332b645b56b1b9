/**
 * The full build keeps its postings stream in a spill file until the segment is built (posting-stream.ts,
 * PostingStream): the segment must be exactly the one built with the stream in memory, and the file gone after.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SegmentBuilder } from "@/lib/search/lancedb/segment-builder";
import type { SegmentDocInput } from "@/lib/search/lancedb/term-encoder";

/** ~2.5M postings: past the first spill (the stream's blocks reach their 1M-entry size after ~2M postings). */
function corpus(): SegmentDocInput[] {
  const docs: SegmentDocInput[] = [];
  let seed = 7;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 2600; i++) {
    const body: string[] = [];
    for (let w = 0; w < 1200; w++) body.push(`t${Math.floor(rand() ** 2 * 20000)}`);
    docs.push({ id: `d${i}`, fields: [`title ${i % 97} w${i % 13}`, ["kw", `k${i % 50}`], body.join(" ")] });
  }
  return docs;
}

describe("keyword segment with a spilled postings stream", () => {
  it("is identical to the in-memory build and removes its file", () => {
    const docs = corpus();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spill-"));
    const file = path.join(dir, "postings");
    try {
      const inMemory = new SegmentBuilder(3, 2);
      const spilled = new SegmentBuilder(3, 2, file);
      for (const d of docs) {
        inMemory.add(d);
        spilled.add(d);
      }
      expect(fs.existsSync(file)).toBe(true);
      const a = inMemory.build().parts();
      const b = spilled.build().parts();
      expect(fs.existsSync(file)).toBe(false);
      expect(b.docs.length).toBeGreaterThan(2_200_000);
      expect(b.ids).toEqual(a.ids);
      expect(b.vocab).toEqual(a.vocab);
      for (const k of ["offsets", "docs", "weights", "masks"] as const) {
        expect(Buffer.from(b[k].buffer, b[k].byteOffset, b[k].byteLength).equals(Buffer.from(a[k].buffer, a[k].byteOffset, a[k].byteLength))).toBe(true);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("removes the file of a build that is abandoned", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spill-"));
    const file = path.join(dir, "postings");
    try {
      const b = new SegmentBuilder(3, 2, file);
      for (const d of corpus().slice(0, 3000)) b.add(d);
      expect(fs.existsSync(file)).toBe(true);
      b.dispose();
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
