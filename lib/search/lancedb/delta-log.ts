/**
 * Incremental writes since a generation's full build, as JSON lines in `<dir>/delta-<gen>.jsonl`. The snapshot
 * (snapshot.ts) holds the generation as built; a process opening the index loads the snapshot and replays this log,
 * so upserts and deletes made by another process (the sync CLI, the worker's scheduled sync) are seen without re-reading
 * LanceDB; a process already serving the generation reads only the tail it has not applied (readDeltaFrom). The log
 * is appended before state.json's revision is bumped, so a reader that sees the new revision also sees the entry; a
 * half-written last line (a reader racing the writer) is left for the next read. Replaying is idempotent. The log
 * lives until the next full build replaces the generation (every 6 hours).
 *
 * A writer that crashed mid-append leaves a torn last line without its newline. Every append therefore starts on a
 * fresh line (L10 / reliability row 30): the torn fragment stays a line of its own, which the reader skips,
 * instead of swallowing the next entry. The torn entry itself is lost from the log, which is safe: the crashed sync
 * run never recorded its watermark, so the next incremental run writes those judgments again.
 */
import fs from "node:fs/promises";
import type { IndexDocumentWithVector } from "../types";

export type DeltaEntry =
  | { op: "upsert"; documents: IndexDocumentWithVector[] }
  | { op: "delete"; ids: string[] };

/** Whether the file is non-empty and does not end with a newline (a torn last line). */
async function endsTorn(fh: fs.FileHandle): Promise<boolean> {
  const { size } = await fh.stat();
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  await fh.read(last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

export async function appendDelta(file: string, entry: DeltaEntry): Promise<void> {
  const fh = await fs.open(file, "a+");
  try {
    const line = JSON.stringify(entry) + "\n";
    // One write per entry (O_APPEND): a torn tail gets its newline in the same write as the entry.
    await fh.write((await endsTorn(fh)) ? "\n" + line : line);
  } finally {
    await fh.close();
  }
}

export async function readDelta(file: string): Promise<DeltaEntry[]> {
  return (await readDeltaFrom(file, 0)).entries;
}

/** The log's size in bytes (0 when there is none): a reader compares it with the bytes it has applied. */
export async function deltaSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * The entries written from byte `from` on, and the byte after the last complete line (where the next read starts).
 * A serving process keeps that offset and reads only the new tail when the index moves on (engine.ts), so making an
 * incremental write visible costs the write, not a reload of the generation. A last line without its newline (being
 * appended right now, or torn by a crashed writer) is left for the next read: the next append ends it (appendDelta).
 */
export async function readDeltaFrom(file: string, from: number): Promise<{ entries: DeltaEntry[]; end: number }> {
  let buf: Buffer;
  try {
    const fh = await fs.open(file, "r");
    try {
      const { size } = await fh.stat();
      if (size <= from) return { entries: [], end: Math.min(from, size) };
      buf = Buffer.allocUnsafe(size - from);
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await fh.read(buf, got, buf.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      buf = buf.subarray(0, got);
    } finally {
      await fh.close();
    }
  } catch {
    return { entries: [], end: from };
  }
  const lastNewline = buf.lastIndexOf(0x0a);
  if (lastNewline < 0) return { entries: [], end: from };
  const out: DeltaEntry[] = [];
  for (const line of buf.subarray(0, lastNewline).toString("utf8").split("\n")) {
    if (line === "") continue;
    try {
      out.push(JSON.parse(line) as DeltaEntry);
    } catch {
      // a torn line left by a crashed writer (terminated by the next append, see above)
    }
  }
  return { entries: out, end: from + lastNewline + 1 };
}
