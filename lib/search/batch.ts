/**
 * Rows → the batch handed to `SearchEngine.sync` (documents with vectors + their chunks with vectors). Shared by the
 * sync job, the benchmark and the conformance suite so every adapter indexes exactly the same thing.
 */
import { chunkText } from "./chunk";
import { embeddingText, toIndexDocument, type JudgmentRow } from "./document";
import type { ChunkRecord, Embedder, IndexBatch, IndexDocument } from "./types";

/** Embed in slices so a model provider never gets one enormous request. */
const EMBED_SLICE = 256;

async function embedAll(embedder: Embedder, texts: string[]): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_SLICE) {
    out.push(...(await embedder.embedDocuments(texts.slice(i, i + EMBED_SLICE))));
  }
  return out;
}

export async function buildIndexBatch(rows: JudgmentRow[], embedder: Embedder): Promise<IndexBatch> {
  const docs: IndexDocument[] = rows.map(toIndexDocument);
  const docVectors = await embedAll(
    embedder,
    docs.map((d) => embeddingText(d)),
  );
  const pending: Array<Omit<ChunkRecord, "vector">> = [];
  for (const d of docs) {
    const ft = typeof d.full_text === "string" ? d.full_text : "";
    for (const c of chunkText(ft)) {
      const rec: Omit<ChunkRecord, "vector"> = {
        id: `${d.id}:${c.position}`,
        judgmentId: d.id,
        position: c.position,
        tokenStart: c.tokenStart,
        text: c.text,
      };
      if (typeof d.jurisdiction === "string") rec.jurisdiction = d.jurisdiction;
      if (typeof d.decision_date_ts === "number") rec.decision_date_ts = d.decision_date_ts;
      pending.push(rec);
    }
  }
  const chunkVectors = await embedAll(
    embedder,
    pending.map((c) => c.text),
  );
  return {
    documents: docs.map((document, i) => ({ document, vector: docVectors[i] })),
    chunks: pending.map((c, i) => ({ ...c, vector: chunkVectors[i] })),
  };
}
