/**
 * Chunk search: a LanceDB cosine vector search over the generation's chunk table, with the filter compiled to SQL
 * when it names only the columns the chunk table has, else post-filtered on the parent judgment.
 */
import type * as lancedb from "@lancedb/lancedb";
import { SearchEngineError } from "../errors";
import { compileFilter, filterAttributes, toLanceSql } from "../filter";
import type { SqlColumnKind } from "../filter/to-sql";
import type { SearchChunksRequest, SearchChunksResponse } from "../types";
import type { StoredDoc } from "./live-index";

const CHUNK_COLUMNS = new Map<string, SqlColumnKind>([
  ["jurisdiction", "text"],
  ["decision_date_ts", "number"],
  // The passages of given judgments (the chat's hybrid retrieval: passages of the keyword search's best judgments).
  ["judgment_id", "text"],
]);

/** The chunk hits of a query vector; `doc` looks a parent judgment up when the filter is applied in memory. */
export async function searchChunkTable(
  chunks: lancedb.Table,
  vec: Float32Array,
  req: SearchChunksRequest,
  doc: (judgmentId: string) => StoredDoc | undefined,
): Promise<SearchChunksResponse["hits"]> {
  const attrs = req.filter ? filterAttributes(req.filter) : new Set<string>();
  const sqlable = [...attrs].every((a) => CHUNK_COLUMNS.has(a));
  const pred = req.filter && !sqlable ? compileFilter(req.filter) : null;
  let query = chunks
    .vectorSearch(Array.from(vec))
    .distanceType("cosine")
    .select(["judgment_id", "position", "text"])
    .limit(pred ? req.limit * 10 : req.limit);
  if (req.filter && sqlable) query = query.where(toLanceSql(req.filter, CHUNK_COLUMNS));
  let rows: Array<{ judgment_id: string; position: number; text: string; _distance: number }>;
  try {
    rows = (await query.toArray()) as typeof rows;
  } catch (e) {
    throw new SearchEngineError("Chunk search failed", { cause: e });
  }
  const hits = [];
  for (const r of rows) {
    if (pred) {
      const parent = doc(r.judgment_id);
      if (!parent || !pred(parent)) continue;
    }
    const similarity = 1 - r._distance;
    if (req.minSimilarity !== undefined && similarity < req.minSimilarity) continue;
    hits.push({ judgmentId: r.judgment_id, position: r.position, text: r.text, similarity });
    if (hits.length >= req.limit) break;
  }
  return hits;
}
