/**
 * Incremental writes since a generation's full build, as JSON lines in `<dir>/delta-<gen>.jsonl`. The snapshot
 * (snapshot.ts) holds the generation as built; a process opening the index loads the snapshot and replays this log,
 * so upserts and deletes made by another process (the sync CLI, the worker's scheduled sync) are seen without re-reading
 * LanceDB. The log is appended before state.json's revision is bumped, so a reader that sees the new revision also
 * sees the entry; a half-written last line (a reader racing the writer) is skipped and picked up on the next reload.
 * Replaying is idempotent. The log lives until the next full build replaces the generation (every 6 hours).
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
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return [];
  }
  const out: DeltaEntry[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      out.push(JSON.parse(line) as DeltaEntry);
    } catch {
      // a line being appended right now (the writer's revision bump triggers another reload), or a torn line left
      // by a crashed writer (terminated by the next append, see above)
    }
  }
  return out;
}
