/**
 * Incremental writes since a generation's full build, as JSON lines in `<dir>/delta-<gen>.jsonl`. The snapshot
 * (snapshot.ts) holds the generation as built; a process opening the index loads the snapshot and replays this log,
 * so upserts and deletes made by another process (the sync CLI, the scheduler) are seen without re-reading
 * LanceDB. The log is appended before state.json's revision is bumped, so a reader that sees the new revision also
 * sees the entry; a half-written last line (a reader racing the writer) is skipped and picked up on the next reload.
 * Replaying is idempotent. The log lives until the next full build replaces the generation (every 6 hours).
 */
import fs from "node:fs/promises";
import type { IndexDocumentWithVector } from "../types";

export type DeltaEntry =
  | { op: "upsert"; documents: IndexDocumentWithVector[] }
  | { op: "delete"; ids: string[] };

export async function appendDelta(file: string, entry: DeltaEntry): Promise<void> {
  await fs.appendFile(file, JSON.stringify(entry) + "\n");
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
      // a line being appended right now; the writer's revision bump triggers another reload
    }
  }
  return out;
}
