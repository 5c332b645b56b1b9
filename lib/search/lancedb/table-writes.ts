/** Incremental writes to a generation's LanceDB tables (the in-memory side and the delta log are engine.ts). */
import type { IndexBatch } from "../types";
import type { GenerationTables } from "./generation";
import { chunksTable, docsTable } from "./store";

/** `'a', 'b'`: ids as quoted SQL literals. */
function sqlList(ids: readonly string[]): string {
  return ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ");
}

/** Upsert the batch's documents and replace their chunks. */
export async function upsertRows(tables: GenerationTables, batch: IndexBatch, dimensions: number): Promise<void> {
  const inList = sqlList(batch.documents.map((d) => d.document.id));
  await tables.docs
    .mergeInsert("id")
    .whenMatchedUpdateAll()
    .whenNotMatchedInsertAll()
    .execute(docsTable(batch.documents, dimensions));
  await tables.chunks.delete(`judgment_id IN (${inList})`);
  if (batch.chunks.length > 0) await tables.chunks.add(chunksTable(batch.chunks, dimensions));
}

/** Delete the judgments and their chunks. */
export async function deleteRows(tables: GenerationTables, ids: readonly string[]): Promise<void> {
  const inList = sqlList(ids);
  await tables.docs.delete(`id IN (${inList})`);
  await tables.chunks.delete(`judgment_id IN (${inList})`);
}

/** How many of the ids the documents table holds. */
export async function countDocuments(tables: GenerationTables, ids: readonly string[]): Promise<number> {
  return ids.length === 0 ? 0 : tables.docs.countRows(`id IN (${sqlList(ids)})`);
}

/**
 * The updated_at of each id the documents table holds, cut out of the stored JSON by LanceDB (no memory index needed,
 * and no full text parsed in JavaScript: a third of the CPU). The key can only match at the top level: inside a string
 * value its quotes are escaped. A document without a string updated_at is left out (so it counts as stale).
 */
export async function indexedVersions(tables: GenerationTables, ids: readonly string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  if (ids.length === 0) return out;
  const rows = (await tables.docs
    .query()
    .where(`id IN (${sqlList(ids)})`)
    .select({ id: "id", updated_at: `regexp_match(doc, '"updated_at":"([^"\\\\]*)"')` })
    .toArray()) as Array<{ id: string; updated_at: Iterable<string> | null }>;
  for (const r of rows) {
    const [version] = r.updated_at ? [...r.updated_at] : [];
    if (version !== undefined && version !== null) out.set(String(r.id), String(version));
  }
  return out;
}
