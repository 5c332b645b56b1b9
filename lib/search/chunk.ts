/**
 * Splits a judgment's full text into overlapping passages for semantic chunk search (issue 5: about 400 tokens with
 * 100 overlap). A token here is a whitespace-separated word: cheap, language-neutral and close to a model token count
 * for prose (models split some words, so 400 words stay under typical 512-token embedding limits only loosely; the
 * ai-SDK embedder truncates defensively).
 */
import { CHUNK_OVERLAP, CHUNK_TOKENS } from "./index-settings";

export interface TextChunk {
  position: number;
  tokenStart: number;
  text: string;
}

export function chunkText(text: string, size = CHUNK_TOKENS, overlap = CHUNK_OVERLAP): TextChunk[] {
  if (size <= 0 || overlap < 0 || overlap >= size) throw new Error("chunk size must exceed overlap");
  const tokens = text.split(/\s+/).filter((t) => t !== "");
  if (tokens.length === 0) return [];
  const stride = size - overlap;
  const chunks: TextChunk[] = [];
  for (let start = 0, position = 0; ; start += stride, position++) {
    chunks.push({ position, tokenStart: start, text: tokens.slice(start, start + size).join(" ") });
    if (start + size >= tokens.length) break;
  }
  return chunks;
}
