/**
 * Rows → the batch handed to `SearchEngine.sync` (documents with vectors + their chunks with vectors). Shared by the
 * sync job, the benchmark and the conformance suite so every adapter indexes exactly the same thing.
 */
import { chunkRanges, whitespaceTokens } from "./chunk";
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

/**
 * An embedder that can embed ranges of a text's whitespace tokens directly (the lexical `local-hash` one): a
 * judgment's overlapping chunks then share one lookup per token instead of re-tokenising every chunk (the hot spot
 * of a build). Each range's vector is the one `embedDocuments` gives the range's text (tokens joined by a space).
 */
interface TokenRangeEmbedder {
  embedTokenRanges(tokens: readonly string[], ranges: ReadonlyArray<{ tokenStart: number; tokenEnd: number }>): number[][];
}

function tokenRangeEmbedder(e: Embedder): TokenRangeEmbedder | null {
  const f = (e as Partial<TokenRangeEmbedder>).embedTokenRanges;
  return typeof f === "function" ? (e as unknown as TokenRangeEmbedder) : null;
}

export async function buildIndexBatch(rows: JudgmentRow[], embedder: Embedder): Promise<IndexBatch> {
  const docs: IndexDocument[] = rows.map(toIndexDocument);
  const docVectors = await embedAll(
    embedder,
    docs.map((d) => embeddingText(d)),
  );
  const byTokens = tokenRangeEmbedder(embedder);
  const pending: Array<Omit<ChunkRecord, "vector">> = [];
  const direct: number[][] = [];
  for (const d of docs) {
    const ft = typeof d.full_text === "string" ? d.full_text : "";
    const tokens = whitespaceTokens(ft);
    const ranges = chunkRanges(tokens.length);
    for (const r of ranges) {
      const rec: Omit<ChunkRecord, "vector"> = {
        id: `${d.id}:${r.position}`,
        judgmentId: d.id,
        position: r.position,
        tokenStart: r.tokenStart,
        text: tokens.slice(r.tokenStart, r.tokenEnd).join(" "),
      };
      if (typeof d.jurisdiction === "string") rec.jurisdiction = d.jurisdiction;
      if (typeof d.decision_date_ts === "number") rec.decision_date_ts = d.decision_date_ts;
      pending.push(rec);
    }
    if (byTokens) for (const v of byTokens.embedTokenRanges(tokens, ranges)) direct.push(v);
  }
  const chunkVectors = byTokens
    ? direct
    : await embedAll(
        embedder,
        pending.map((c) => c.text),
      );
  return {
    documents: docs.map((document, i) => ({ document, vector: docVectors[i] })),
    chunks: pending.map((c, i) => ({ ...c, vector: chunkVectors[i] })),
  };
}
