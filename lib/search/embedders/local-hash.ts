/**
 * The default embedder when no model is configured (ARCHITECTURE: embeddings): deterministic, offline, 384
 * dimensions. Features are folded words except stop words (weight 1) and character trigrams of each padded word (weight 0.5) with
 * sublinear term frequency; each feature is hashed to a fixed, seeded sparse ±1 projection (feature hashing with
 * several hash functions), then the vector is L2-normalised. It captures lexical overlap and spelling variants, not
 * meaning, so it is labelled "lexical (no model configured)" everywhere it is shown.
 */
import { RangeTable } from "@/lib/search/text/range-table";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { grow } from "@/lib/search/typed-grow";
import { words } from "@/lib/search/text/tokenize";
import type { Embedder } from "@/lib/search/types";
import { LruCache } from "@/lib/lru";

export const LOCAL_HASH_LABEL = "lexical (no model configured)";
export const LOCAL_HASH_DIMENSIONS = 384;
/** Each feature touches this many dimensions (seeds below). */
const PROJECTIONS = 4;
const SEED = 0x5eed_1234;

/** murmur3-style 32-bit hash of a string with a seed (fixed: vectors must never change between runs). */
export function hash32(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    let k = s.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= s.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The projection of one word (its word feature and its character trigrams), as (dimension, signed weight) pairs at
 * [start, end) of its memo's arena, plus per-call term-frequency scratch (`stamp`, `count`) so a text's tf needs no
 * Map or objects per call. Memoised: a corpus has far fewer distinct words than tokens, so indexing mostly adds
 * cached projections.
 */
interface WordEntry {
  start: number;
  end: number;
  stop: boolean;
  stamp: number;
  count: number;
}

/**
 * Per width: word → entry, and whitespace token → the entries of its non-stop words in order (a judgment's tokens
 * repeat a lot, and its overlapping chunks read each token again). An entry stays the one entry of its word until
 * trimMemos, which runs only between vectors: its `stamp` and `count` are the term frequency of the vector being
 * accumulated, so a word must not get a second entry in the middle of one.
 */
interface Memo {
  words: Map<string, WordEntry>;
  /**
   * The words' (dimension, weight) pairs, one run per word: summing a vector reads ~230 words' pairs, and two typed
   * arrays per word (each an object, an ArrayBuffer and a separate backing store) made that a chase of cache misses
   * (~90 us a chunk); one arena also takes less memory.
   */
  dims: Int32Array<ArrayBuffer>;
  weights: Float32Array<ArrayBuffer>;
  used: number;
  /** Searched by the token's characters in its text (no string per token: range-table.ts). */
  tokens: RangeTable<WordEntry[]>;
}
const memos = new Map<number, Memo>();
let callStamp = 0;
const NO_ENTRIES: WordEntry[] = [];
/** A placeholder entry for cleared scratch slots (keeps the scratch arrays' element kind). */
const NO_ENTRY: WordEntry = { start: 0, end: 0, stop: true, stamp: 0, count: 0 };
/** Words past this many are forgotten (10x the demo corpus has ~250k distinct words); tokens past TOKEN_LIMIT. */
const WORD_LIMIT = 600_000;
const TOKEN_LIMIT = 300_000;

function memoFor(dimensions: number): Memo {
  let m = memos.get(dimensions);
  if (!m) {
    m = { words: new Map(), dims: new Int32Array(1 << 16), weights: new Float32Array(1 << 16), used: 0, tokens: new RangeTable<WordEntry[]>() };
    memos.set(dimensions, m);
  }
  return m;
}

/** Bound the memos (called between vectors only). */
function trimMemos(m: Memo): void {
  if (m.words.size > WORD_LIMIT) {
    m.words.clear();
    m.tokens.clear();
    m.used = 0; // no entry is left that points into the arena
  }
  if (m.tokens.size > TOKEN_LIMIT) m.tokens.clear();
}

function wordEntry(memo: Memo, w: string, dimensions: number): WordEntry {
  const hit = memo.words.get(w);
  if (hit) return hit;
  const feats: Array<[string, number]> = [["w:" + w, 1]];
  const padded = `^${w}$`;
  for (let i = 0; i + 3 <= padded.length; i++) feats.push(["c:" + padded.slice(i, i + 3), 0.5]);
  const start = memo.used;
  const end = start + feats.length * PROJECTIONS;
  memo.dims = grow(memo.dims, end);
  memo.weights = grow(memo.weights, end);
  memo.used = end;
  const { dims, weights } = memo;
  let k = start;
  for (const [feature, weight] of feats) {
    for (let p = 0; p < PROJECTIONS; p++) {
      const h = hash32(feature, SEED + p * 0x9e3779b1);
      dims[k] = h % dimensions;
      weights[k] = (h & 0x80000000 ? -1 : 1) * weight;
      k++;
    }
  }
  const entry: WordEntry = { start, end, stop: STOPWORDS.has(w), stamp: 0, count: 0 };
  memo.words.set(w, entry);
  return entry;
}

function entriesOfToken(memo: Memo, token: string, dimensions: number): WordEntry[] {
  let out: WordEntry[] | null = null;
  for (const w of words(token)) {
    const e = wordEntry(memo, w, dimensions);
    if (!e.stop) (out ??= []).push(e);
  }
  return out ?? NO_ENTRIES;
}

/** The entries of the whitespace token text[start, end). */
function tokenEntries(memo: Memo, text: string, start: number, end: number, dimensions: number): WordEntry[] {
  const h = RangeTable.hash(text, start, end);
  const hit = memo.tokens.find(text, start, end, h);
  if (hit) return hit;
  const token = start === 0 && end === text.length ? text : text.slice(start, end);
  const entries = entriesOfToken(memo, token, dimensions);
  memo.tokens.add(token, h, entries);
  return entries;
}

/**
 * Accumulation scratch of one width (a vector is summed here, then normalised into its destination): the build
 * computes millions of vectors, and a Float64Array plus a number[] each were most of the vectors worker's garbage.
 */
const scratchByWidth = new Map<number, Float64Array>();
/** Distinct entries of the vector being accumulated, in first-occurrence order (reused; only `seenCount` are live). */
const seen: WordEntry[] = [];
let seenCount = 0;

/** Count one occurrence of an entry in the vector being accumulated (first occurrences appended to `seen`). */
function countEntry(e: WordEntry, stamp: number): void {
  if (e.stamp !== stamp) {
    e.stamp = stamp;
    e.count = 0;
    seen[seenCount++] = e;
  }
  e.count++;
}

/**
 * The normalised vector of the `seenCount` distinct entries (in first-occurrence order, with their counts), written
 * to out[offset, offset + dimensions). The sums, their order and the division are those of a fresh Float64Array per
 * vector, so the doubles are bit-identical.
 */
function vectorOfSeenInto(memo: Memo, dimensions: number, out: Float64Array | number[], offset: number): void {
  let vec = scratchByWidth.get(dimensions);
  if (!vec) scratchByWidth.set(dimensions, (vec = new Float64Array(dimensions)));
  else vec.fill(0);
  for (let s = 0; s < seenCount; s++) {
    const e = seen[s];
    const weight = 1 + Math.log(e.count);
    const { dims, weights } = memo;
    for (let i = e.start, end = e.end; i < end; i++) vec[dims[i]] += weights[i] * weight;
  }
  // Drop the references: entries must not outlive a trimMemos through this array.
  seen.fill(NO_ENTRY, 0, seenCount);
  seenCount = 0;
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vec[i] * vec[i];
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) out[offset + i] = norm > 0 ? vec[i] / norm : 0;
}

/** Scratch of the per-token entries of one text (reused; only its first tokenCount are live during a call). */
const perToken: WordEntry[][] = [];

/** The vectors of ranges of the tokens in perToken (see localHashVectorsOfTextRangesInto). */
function rangesInto(
  memo: Memo,
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  rangeCount: number,
  out: Float64Array,
  offset: number,
  dimensions: number,
): void {
  for (let r = 0; r < rangeCount; r++) {
    const stamp = ++callStamp;
    for (let t = starts[r], end = ends[r]; t < end; t++) {
      const es = perToken[t];
      for (let k = 0; k < es.length; k++) countEntry(es[k], stamp);
    }
    vectorOfSeenInto(memo, dimensions, out, offset + r * dimensions);
  }
}

/**
 * The vectors of ranges of a text's whitespace tokens (its overlapping chunks), row-major into `out` from `offset`
 * (range r at offset + r * dimensions). Token i is text[tokenStart[i], tokenEnd[i]); range `[starts[r], ends[r])` of
 * tokens gets exactly `localHashVectorOfWords(words(<those tokens>.join(" ")))` (no word spans whitespace), but each
 * token is looked up once per text instead of once per word and per chunk (the hot spot of a full build), from the
 * text's characters, and nothing is allocated per token or per range.
 */
export function localHashVectorsOfTextRangesInto(
  text: string,
  tokenStart: ArrayLike<number>,
  tokenEnd: ArrayLike<number>,
  tokenCount: number,
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  rangeCount: number,
  out: Float64Array,
  offset: number,
  dimensions = LOCAL_HASH_DIMENSIONS,
): void {
  const memo = memoFor(dimensions);
  trimMemos(memo);
  for (let i = 0; i < tokenCount; i++) perToken[i] = tokenEntries(memo, text, tokenStart[i], tokenEnd[i], dimensions);
  rangesInto(memo, starts, ends, rangeCount, out, offset, dimensions);
  perToken.fill(NO_ENTRIES, 0, tokenCount);
}

/** The vectors of ranges of a text's whitespace tokens, one array each (see localHashVectorsOfTextRangesInto). */
export function localHashVectorsOfTokenRanges(
  tokens: readonly string[],
  ranges: ReadonlyArray<{ tokenStart: number; tokenEnd: number }>,
  dimensions = LOCAL_HASH_DIMENSIONS,
): number[][] {
  const memo = memoFor(dimensions);
  trimMemos(memo);
  for (let i = 0; i < tokens.length; i++) perToken[i] = tokenEntries(memo, tokens[i], 0, tokens[i].length, dimensions);
  const flat = new Float64Array(ranges.length * dimensions);
  rangesInto(
    memo,
    ranges.map((r) => r.tokenStart),
    ranges.map((r) => r.tokenEnd),
    ranges.length,
    flat,
    0,
    dimensions,
  );
  perToken.fill(NO_ENTRIES, 0, tokens.length);
  return ranges.map((_, r) => Array.from(flat.subarray(r * dimensions, (r + 1) * dimensions)));
}

/** The lexical vector of a list of folded words, written to out[offset, offset + dimensions). */
export function localHashVectorOfWordsInto(
  ws: readonly string[],
  out: Float64Array | number[],
  offset: number,
  dimensions = LOCAL_HASH_DIMENSIONS,
): void {
  const memo = memoFor(dimensions);
  trimMemos(memo);
  const stamp = ++callStamp;
  // Distinct words in first-occurrence order (the accumulation order, so vectors are bit-identical run to run).
  for (const w of ws) {
    const e = wordEntry(memo, w, dimensions);
    if (!e.stop) countEntry(e, stamp);
  }
  vectorOfSeenInto(memo, dimensions, out, offset);
}

/**
 * The lexical vector of a list of folded words (what `words()` returns for a text). The chunker calls this with
 * words it already has, so a judgment's full text is tokenised once for all its overlapping chunks.
 */
export function localHashVectorOfWords(ws: readonly string[], dimensions = LOCAL_HASH_DIMENSIONS): number[] {
  const out = new Array<number>(dimensions);
  localHashVectorOfWordsInto(ws, out, 0, dimensions);
  return out;
}

/** The lexical vector of a text (pure function, exported for tests). */
export function localHashVector(text: string, dimensions = LOCAL_HASH_DIMENSIONS): number[] {
  return localHashVectorOfWords(words(text), dimensions);
}

/** The wider lexical option offered in settings: fewer hash collisions for twice the vector memory. */
export const LOCAL_HASH_WIDE_DIMENSIONS = 768;

export class LocalHashEmbedder implements Embedder {
  readonly id: string;
  readonly label: string;
  readonly kind = "lexical" as const;
  readonly dimensions: number;
  private readonly cache = new LruCache<string, number[]>(1000);

  /** The default is `local-hash` (384); another width is `local-hash-<dimensions>`, a different index. */
  constructor(dimensions: number = LOCAL_HASH_DIMENSIONS) {
    this.dimensions = dimensions;
    this.id = dimensions === LOCAL_HASH_DIMENSIONS ? "local-hash" : `local-hash-${dimensions}`;
    this.label =
      dimensions === LOCAL_HASH_DIMENSIONS
        ? LOCAL_HASH_LABEL
        : `lexical, ${dimensions} dimensions: fewer hash collisions, more memory (no model configured)`;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => localHashVector(t, this.dimensions));
  }

  /** Same vectors as embedDocuments for texts whose folded words the caller already has (see lib/search/batch). */
  embedWords(ws: readonly string[]): number[] {
    return localHashVectorOfWords(ws, this.dimensions);
  }

  /** The vectors of ranges of a text's whitespace tokens, as embedWords of their words (see lib/search/batch). */
  embedTokenRanges(tokens: readonly string[], ranges: ReadonlyArray<{ tokenStart: number; tokenEnd: number }>): number[][] {
    return localHashVectorsOfTokenRanges(tokens, ranges, this.dimensions);
  }

  async embedQuery(text: string): Promise<number[]> {
    const hit = this.cache.get(text);
    if (hit) return hit;
    const v = localHashVector(text, this.dimensions);
    this.cache.set(text, v);
    return v;
  }
}
