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
