/**
 * The words of a text the highlighter formats, found once per text instead of per query: each word's offsets, whether
 * it begins a sentence, and where each distinct folded word occurs. A query's marked terms are then found by id (no
 * slicing, folding or hashing of the text's words at query time), and a crop works on the positions of the marked
 * words only.
 * A stored document's texts are worked out on their first format and kept with the document (they die with its
 * generation); other texts (a semantic passage's chunk) are kept in a small LRU keyed by the text.
 */
import { LruCache } from "@/lib/lru";
import { RangeTable } from "../text/range-table";
import { foldWord, newWordRuns, scanWords } from "../text/tokenize";

/**
 * Folded word → id, shared by every text formatted and by the marks looked up against them. Grows with the corpus'
 * vocabulary; past MAX_WORDS (text from outside the corpus piling up) it starts again under a new epoch, and texts
 * indexed under an older epoch are indexed again when next formatted.
 */
const MAX_WORDS = 1 << 20;
let ids = new Map<string, number>();
let epoch = 0;
/** A word as the texts spell it → its folded id: a repeated spelling is found without slicing or folding it. */
let spelt = new RangeTable<number>();

/** The id of a folded word, given one if it has none yet. */
export function wordId(folded: string): number {
  let id = ids.get(folded);
  if (id === undefined) {
    id = ids.size;
    ids.set(folded, id);
  }
  return id;
}

/**
 * A text's words in one Int32Array `a`, in four parts:
 * - words: word i is text[a[2i], a[2i + 1]);
 * - distinct folded ids, ascending: id j is a[idsAt + j] (j < u);
 * - where each occurs: the words a[posAt + a[offAt + j]] … a[posAt + a[offAt + j + 1] - 1], ascending;
 * - the sentence starts (the text's first word, or one after ".", "!" or "?") as a bitset: word i is bit i & 31 of
 *   a[sentAt + (i >> 5)], so the crop's look for one near its window reads one 4-byte value per 32 words instead of
 *   each word's end (memory a request had to fetch).
 * So a query's few marked terms are found by a binary search each, not by reading every word.
 */
export interface TextWords {
  readonly text: string;
  readonly epoch: number;
  /** Word count. */
  readonly n: number;
  /** Distinct folded words. */
  readonly u: number;
  readonly a: Int32Array;
  readonly idsAt: number;
  readonly offAt: number;
  readonly posAt: number;
  readonly sentAt: number;
  /** The text holds none of & < > " (its pieces need no escaping). */
  readonly plain: boolean;
  /**
   * A 90-bit Bloom filter of the distinct ids (bloomBit), 30 bits a field: most formatted texts hold none of a query's
   * marked terms (a case number, a court), and this tells so without reading `a`.
   */
  readonly b0: number;
  readonly b1: number;
  readonly b2: number;
  /** The text formatted without marks (escaped; cropped to `unmarkedCropLength` words when that is ≥ 0), kept once made. */
  unmarked: string | undefined;
  unmarkedCropLength: number;
}

/** A word id's place in a TextWords Bloom filter: field (0-2) × 32 + bit (0-29). */
export function bloomBit(id: number): number {
  const h = (Math.imul(id, 0x9e3779b1) >>> 0) % 90;
  return ((h / 30) | 0) * 32 + (h % 30);
}

const HTML_SPECIAL = /[&<>"]/;
const scratch = newWordRuns(1024);
let wordIds = new Int32Array(1024);
let distinct = new Int32Array(1024);
/** Per id, while a text is indexed: its occurrences, then where its next word goes (all 0 between texts). */
let slot = new Int32Array(1 << 16);

/** Whether the gap text[from, to) between two words ends a sentence (".", "!" or "?"). */
function endsSentence(text: string, from: number, to: number): boolean {
  for (let p = from; p < to; p++) {
    const c = text.charCodeAt(p);
    if (c === 46 || c === 33 || c === 63) return true;
  }
  return false;
}

export function indexText(text: string): TextWords {
  if (ids.size > MAX_WORDS) {
    ids = new Map();
    spelt = new RangeTable();
    epoch++;
  }
  const n = scanWords(text, scratch);
  const { start, end, ascii } = scratch;
  if (wordIds.length < n) {
    wordIds = new Int32Array(Math.max(n, wordIds.length * 2));
    distinct = new Int32Array(wordIds.length);
  }
  // The distinct ids, each counted where it first occurs (slot: id → occurrences, then → next free place).
  let u = 0;
  for (let i = 0; i < n; i++) {
    const s = start[i];
    const e = end[i];
    const h = RangeTable.hash(text, s, e);
    let id = spelt.find(text, s, e, h);
    if (id === undefined) {
      id = wordId(foldWord(text, s, e, ascii[i] === 1));
      spelt.add(text.slice(s, e), h, id);
    }
    wordIds[i] = id;
    if (id >= slot.length) {
      const grown = new Int32Array(Math.max(id + 1, slot.length * 2));
      grown.set(slot);
      slot = grown;
    }
    if (slot[id]++ === 0) distinct[u++] = id;
  }
  const idsAt = 2 * n;
  const offAt = idsAt + u;
  const posAt = offAt + u + 1;
  const sentAt = posAt + n;
  const a = new Int32Array(sentAt + ((n + 31) >> 5));
  for (let i = 0; i < n; i++) {
    a[2 * i] = start[i];
    a[2 * i + 1] = end[i];
    if (i === 0 || endsSentence(text, end[i - 1], start[i])) a[sentAt + (i >> 5)] |= 1 << (i & 31);
  }
  // Ids ascending, each one's occurrence list after the previous one's, its words in text order.
  const sorted = distinct.subarray(0, u).sort();
  let at = 0;
  for (let j = 0; j < u; j++) {
    const id = sorted[j];
    a[idsAt + j] = id;
    a[offAt + j] = at;
    const count = slot[id];
    slot[id] = posAt + at;
    at += count;
  }
  a[offAt + u] = n;
  for (let i = 0; i < n; i++) a[slot[wordIds[i]]++] = i;
  // Leave the slots clear for the next text.
  const bloom = [0, 0, 0];
  for (let j = 0; j < u; j++) {
    slot[sorted[j]] = 0;
    const b = bloomBit(sorted[j]);
    bloom[b >> 5] |= 1 << (b & 31);
  }
  return {
    text,
    epoch,
    n,
    u,
    a,
    idsAt,
    offAt,
    posAt,
    sentAt,
    plain: !HTML_SPECIAL.test(text),
    b0: bloom[0],
    b1: bloom[1],
    b2: bloom[2],
    unmarked: undefined,
    unmarkedCropLength: -1,
  };
}

function current(t: TextWords | undefined, text: string): t is TextWords {
  return t !== undefined && t.epoch === epoch && t.text === text;
}

/*
 * A stored document's formatted values by attribute slot (attrSlot): a text's words, an array of texts' words, or null
 * for a value that is neither. The caller keeps one DocWords per document object (format.ts: with the document's
 * projection, so a hit costs one lookup); a replaced or deleted document's entries go with it.
 */
export type DocWords = Array<TextWords | TextWords[] | null | undefined>;

const slots = new Map<string, number>();

/** The slot of an attribute in every DocWords (attributes are few: the displayed ones). */
export function attrSlot(attr: string): number {
  let s = slots.get(attr);
  if (s === undefined) {
    s = slots.size;
    slots.set(attr, s);
  }
  return s;
}

/** The words of a stored value: a text's, each element's of an array of texts, or null for anything else. */
export function valueWords(v: unknown): TextWords | TextWords[] | null {
  if (typeof v === "string") return indexText(v);
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return (v as string[]).map(indexText);
  return null;
}

/** Whether `t` was indexed under the current vocabulary epoch (its ids are the current ones). */
export function isCurrent(t: TextWords): boolean {
  return t.epoch === epoch;
}

/** Texts not from a stored document: the longer ones are kept (a page's passages come back query after query). */
const CACHED_MIN_LENGTH = 64;
const byText = new LruCache<string, TextWords>(1024);

export function textWords(text: string): TextWords {
  if (text.length < CACHED_MIN_LENGTH) return indexText(text);
  const hit = byText.get(text);
  if (current(hit, text)) return hit;
  const t = indexText(text);
  byText.set(text, t);
  return t;
}
