/** Deterministic identifiers of demo-corpus judgments, shared by the generator and the known-answer list. */
import { uuidFromKey } from "../../lib/analysis/prng";

/** Judgment id (UUID) of the row at `index` in a corpus generated with `seed`. */
export function judgmentId(seed: number, index: number): string {
  return uuidFromKey(`judgment:${seed}:${index}`);
}

/** source_id of the row at `index`: `demo-<seed>-<index>`, so ingestion and reseeding never collide with real data. */
export function sourceIdFor(seed: number, index: number): string {
  return `demo-${seed}-${String(index).padStart(5, "0")}`;
}
