/**
 * Splits a judgment's full text into overlapping passages for semantic chunk search (about 400 tokens with
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

/** A chunk as a range of whitespace tokens: [tokenStart, tokenEnd). */
export interface TokenRange {
  position: number;
  tokenStart: number;
  tokenEnd: number;
}

export function whitespaceTokens(text: string): string[] {
  return text.split(/\s+/).filter((t) => t !== "");
}

/**
 * Visit the chunk ranges of `tokenCount` tokens in order, allocating nothing (the build's vectors worker writes them
 * into its own arrays); returns how many there were. The one place the chunking arithmetic lives.
 */
export function forEachChunkRange(
  tokenCount: number,
  visit: (position: number, tokenStart: number, tokenEnd: number) => void,
  size = CHUNK_TOKENS,
  overlap = CHUNK_OVERLAP,
): number {
  if (size <= 0 || overlap < 0 || overlap >= size) throw new Error("chunk size must exceed overlap");
  if (tokenCount === 0) return 0;
  const stride = size - overlap;
  for (let start = 0, position = 0; ; start += stride, position++) {
    visit(position, start, Math.min(tokenCount, start + size));
    if (start + size >= tokenCount) return position + 1;
  }
}

export function chunkRanges(tokenCount: number, size = CHUNK_TOKENS, overlap = CHUNK_OVERLAP): TokenRange[] {
  const out: TokenRange[] = [];
  forEachChunkRange(tokenCount, (position, tokenStart, tokenEnd) => out.push({ position, tokenStart, tokenEnd }), size, overlap);
  return out;
}

export function chunkText(text: string, size = CHUNK_TOKENS, overlap = CHUNK_OVERLAP): TextChunk[] {
  const tokens = whitespaceTokens(text);
  return chunkRanges(tokens.length, size, overlap).map((r) => ({
    position: r.position,
    tokenStart: r.tokenStart,
    text: tokens.slice(r.tokenStart, r.tokenEnd).join(" "),
  }));
}
