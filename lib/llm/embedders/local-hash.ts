/**
 * The default embedder when no model is configured (ARCHITECTURE: embeddings): deterministic, offline, 384
 * dimensions. Features are folded words except stop words (weight 1) and character trigrams of each padded word (weight 0.5) with
 * sublinear term frequency; each feature is hashed to a fixed, seeded sparse ±1 projection (feature hashing with
 * several hash functions), then the vector is L2-normalised. It captures lexical overlap and spelling variants, not
 * meaning, so it is labelled "lexical (no model configured)" everywhere it is shown.
 */
import { STOPWORDS } from "@/lib/search/text/stopwords";
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
 * The projection of one word (its word feature and its character trigrams), as (dimension, signed weight) pairs,
 * plus per-call term-frequency scratch (`stamp`, `count`) so a text's tf needs no Map or objects per call.
 * Memoised: a corpus has far fewer distinct words than tokens, so indexing mostly adds cached projections.
 */
interface WordEntry {
  dims: Int32Array;
  weights: Float32Array;
  dimensions: number;
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
  tokens: Map<string, WordEntry[]>;
}
const memos = new Map<number, Memo>();
let callStamp = 0;
const NO_ENTRIES: WordEntry[] = [];
/** Words past this many are forgotten (10x the demo corpus has ~250k distinct words); tokens past TOKEN_LIMIT. */
const WORD_LIMIT = 600_000;
const TOKEN_LIMIT = 300_000;

function memoFor(dimensions: number): Memo {
  let m = memos.get(dimensions);
  if (!m) memos.set(dimensions, (m = { words: new Map(), tokens: new Map() }));
  return m;
}

/** Bound the memos (called between vectors only). */
function trimMemos(m: Memo): void {
  if (m.words.size > WORD_LIMIT) {
    m.words.clear();
    m.tokens.clear();
  }
  if (m.tokens.size > TOKEN_LIMIT) m.tokens.clear();
}

function wordEntry(memo: Memo, w: string, dimensions: number): WordEntry {
  const hit = memo.words.get(w);
  if (hit) return hit;
  const feats: Array<[string, number]> = [["w:" + w, 1]];
  const padded = `^${w}$`;
  for (let i = 0; i + 3 <= padded.length; i++) feats.push(["c:" + padded.slice(i, i + 3), 0.5]);
  const dims = new Int32Array(feats.length * PROJECTIONS);
  const weights = new Float32Array(feats.length * PROJECTIONS);
  let k = 0;
  for (const [feature, weight] of feats) {
    for (let p = 0; p < PROJECTIONS; p++) {
      const h = hash32(feature, SEED + p * 0x9e3779b1);
      dims[k] = h % dimensions;
      weights[k] = (h & 0x80000000 ? -1 : 1) * weight;
      k++;
    }
  }
  const entry: WordEntry = { dims, weights, dimensions, stop: STOPWORDS.has(w), stamp: 0, count: 0 };
  memo.words.set(w, entry);
  return entry;
}

function tokenEntries(memo: Memo, token: string, dimensions: number): WordEntry[] {
  const hit = memo.tokens.get(token);
  if (hit) return hit;
  let out: WordEntry[] | null = null;
  for (const w of words(token)) {
    const e = wordEntry(memo, w, dimensions);
    if (!e.stop) (out ??= []).push(e);
  }
  const entries = out ?? NO_ENTRIES;
  memo.tokens.set(token, entries);
  return entries;
}

/** Count one occurrence of an entry in the vector being accumulated (first occurrences appended to `seen`). */
function countEntry(e: WordEntry, stamp: number, seen: WordEntry[]): void {
  if (e.stamp !== stamp) {
    e.stamp = stamp;
    e.count = 0;
    seen.push(e);
  }
  e.count++;
}

/** The normalised vector of the distinct entries of one text (in first-occurrence order, with their counts). */
function vectorOfSeen(seen: readonly WordEntry[], dimensions: number): number[] {
  const vec = new Float64Array(dimensions);
  for (const e of seen) {
    const weight = 1 + Math.log(e.count);
    const { dims, weights } = e;
    for (let i = 0; i < dims.length; i++) vec[dims[i]] += weights[i] * weight;
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vec[i] * vec[i];
  norm = Math.sqrt(norm);
  const out = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = norm > 0 ? vec[i] / norm : 0;
  return out;
}

/**
 * The vectors of ranges of a text's whitespace tokens (its overlapping chunks): range `[tokenStart, tokenEnd)` gets
 * exactly `localHashVectorOfWords(words(tokens[tokenStart..tokenEnd).join(" ")))` (no word spans whitespace), but
 * each token is looked up once per text instead of once per word and per chunk (the hot spot of a full build).
 */
export function localHashVectorsOfTokenRanges(
  tokens: readonly string[],
  ranges: ReadonlyArray<{ tokenStart: number; tokenEnd: number }>,
  dimensions = LOCAL_HASH_DIMENSIONS,
): number[][] {
  const memo = memoFor(dimensions);
  trimMemos(memo);
  const perToken = new Array<WordEntry[]>(tokens.length);
  for (let i = 0; i < tokens.length; i++) perToken[i] = tokenEntries(memo, tokens[i], dimensions);
  const out: number[][] = [];
  for (const r of ranges) {
    const stamp = ++callStamp;
    const seen: WordEntry[] = [];
    for (let t = r.tokenStart; t < r.tokenEnd; t++) {
      const es = perToken[t];
      for (let k = 0; k < es.length; k++) countEntry(es[k], stamp, seen);
    }
    out.push(vectorOfSeen(seen, dimensions));
  }
  return out;
}

/**
 * The lexical vector of a list of folded words (what `words()` returns for a text). The chunker calls this with
 * words it already has, so a judgment's full text is tokenised once for all its overlapping chunks.
 */
export function localHashVectorOfWords(ws: readonly string[], dimensions = LOCAL_HASH_DIMENSIONS): number[] {
  const memo = memoFor(dimensions);
  trimMemos(memo);
  const stamp = ++callStamp;
  // Distinct words in first-occurrence order (the accumulation order, so vectors are bit-identical run to run).
  const seen: WordEntry[] = [];
  for (const w of ws) {
    const e = wordEntry(memo, w, dimensions);
    if (!e.stop) countEntry(e, stamp, seen);
  }
  return vectorOfSeen(seen, dimensions);
}

/** The lexical vector of a text (pure function, exported for tests). */
export function localHashVector(text: string, dimensions = LOCAL_HASH_DIMENSIONS): number[] {
  return localHashVectorOfWords(words(text), dimensions);
}

/** The wider lexical option offered in settings (issue 15 item 3): fewer hash collisions for twice the vector memory. */
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
