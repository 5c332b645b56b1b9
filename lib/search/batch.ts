/**
 * Rows → the batch handed to `SearchEngine.sync` (documents with vectors + their chunks with vectors). Shared by the
 * sync job, the benchmark and the conformance suite so every adapter indexes exactly the same thing.
 */
import { chunkRanges, whitespaceTokens } from "./chunk";
import { embeddingText, toIndexDocument, type JudgmentRow } from "./document";
import { words } from "./text/tokenize";
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
 * An embedder that can embed a text from its folded words (the lexical `local-hash` one): chunks then reuse the
 * words of their judgment's full text instead of re-tokenising every overlapping chunk (the hot spot of a build).
 */
interface WordsEmbedder {
  embedWords(ws: readonly string[]): number[];
}

function wordsEmbedder(e: Embedder): WordsEmbedder | null {
  const f = (e as Partial<WordsEmbedder>).embedWords;
  return typeof f === "function" ? (e as unknown as WordsEmbedder) : null;
}

export async function buildIndexBatch(rows: JudgmentRow[], embedder: Embedder): Promise<IndexBatch> {
  const docs: IndexDocument[] = rows.map(toIndexDocument);
  const docVectors = await embedAll(
    embedder,
    docs.map((d) => embeddingText(d)),
  );
  const byWords = wordsEmbedder(embedder);
  // Folded words of each whitespace token, shared across the batch (tokens repeat a lot).
  const tokenWords = new Map<string, string[]>();
  const wordsOf = (t: string) => {
    let ws = tokenWords.get(t);
    if (!ws) {
      ws = words(t);
      tokenWords.set(t, ws);
    }
    return ws;
  };
  const pending: Array<Omit<ChunkRecord, "vector">> = [];
  const direct: number[][] = [];
  for (const d of docs) {
    const ft = typeof d.full_text === "string" ? d.full_text : "";
    const tokens = whitespaceTokens(ft);
    for (const r of chunkRanges(tokens.length)) {
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
      if (byWords) {
        // words(tokens.join(" ")) is the concatenation of the tokens' words: no word spans a space.
        const ws: string[] = [];
        for (let i = r.tokenStart; i < r.tokenEnd; i++) for (const w of wordsOf(tokens[i])) ws.push(w);
        direct.push(byWords.embedWords(ws));
      }
    }
  }
  const chunkVectors = byWords
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
