/**
 * The deterministic seeded sample the aggregate uses (supabase/migrations/20260103000300_structured_aggregate_single_pass.sql:
 * `order by md5(c.id::text || ':' || seed::text), c.id limit n`), done in TypeScript so an analysis over rows already
 * fetched selects exactly the rows the database would. md5 hex strings all have the same length and alphabet, so
 * comparing them by code point is the database's text order; the id tie-break never fires in practice.
 */
import { createHash } from "node:crypto";

/** The sort key of one row for a seed, as the SQL computes it. */
export function sampleKey(id: string, seed: number): string {
  return createHash("md5").update(`${id}:${seed}`).digest("hex");
}

/**
 * The first `size` items in the aggregate's seeded order (every item, in that order, when size ≥ items.length —
 * D-13). `seed` must be an integer (int32 at the API), as in the SQL.
 */
export function seededSample<T extends { id: string }>(items: readonly T[], size: number, seed: number): T[] {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  const keyed = items.map((item) => ({ item, key: sampleKey(item.id, seed) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return keyed.slice(0, size).map((k) => k.item);
}
