/** Documents to postings: the keyword index's tokenisation into term ids, field weights and field masks. */
import { RangeTable } from "../text/range-table";
import { foldWord, newWordRuns, scanWords } from "../text/tokenize";
import { grow } from "../typed-grow";
import { fieldWeight } from "./keyword-scoring";

export interface SegmentDocInput {
  id: string;
  /** Values of the searchable attributes, in declared order. */
  fields: ReadonlyArray<unknown>;
}

/** Where TermEncoder puts a document's postings (PostingStream, or PostingBuffer to hand them to another thread). */
export interface PostingSink {
  push(term: number, short: number, long: number, mask: number): void;
}

/**
 * Documents' searchable fields → postings, one per distinct term of a document (its summed short-field weight, its
 * count in the long field, the mask of fields it occurs in), with term ids given in first-seen order. One encoder per
 * segment being built: the full build's batch worker runs it off the main thread and hands over the postings with the
 * terms it met first (PostingBuffer); SegmentBuilder.add runs its own.
 */
/** FNV-1a over char codes [start, end) of `s`, ASCII capitals lower-cased (for an ASCII word: the hash of its fold). */
function foldedHash(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

/** Whether `term` is the ASCII word text[start, end) lower-cased. */
function isLowerOf(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = start, j = 0; i < end; i++, j++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (term.charCodeAt(j) !== c) return false;
  }
  return true;
}

export class TermEncoder {
  /** Terms by id (first-seen order). */
  readonly vocab: string[] = [];
  /**
   * Term lookup by folded word without making the word's string (open addressing: slot → term id + 1, 0 empty; the
   * hash of each term in termHash): an ASCII word, most of any text, is hashed and compared from the text itself, so
   * only a word new to the vocabulary is sliced. A string per word of every full text was most of the documents
   * worker's garbage.
   */
  private table = new Int32Array(1 << 16);
  private termHash = new Uint32Array(1024);
  /** A non-ASCII word as written → its term id (folding it would slice it and search the fold memo each time). */
  private rawTerms = new RangeTable<number>();
  private readonly runs = newWordRuns(1024);
  private docs = 0;
  // Per-document accumulation without a Map or objects per term: stamp[term] = document number marks the terms
  // already seen in the current document, slot[term] their index in the local arrays.
  private stamp = new Uint32Array(1024);
  private slot = new Uint32Array(1024);
  private localTerms = new Uint32Array(1024);
  private localShort = new Float32Array(1024);
  private localLong = new Uint32Array(1024);
  private localMask = new Uint32Array(1024);

  constructor(
    private readonly fieldCount: number,
    /** Index of the long field (full_text) among the searchable attributes, or -1. */
    private readonly longField: number,
  ) {
    if (fieldCount > 32) throw new Error("at most 32 searchable attributes (field mask is 32-bit)");
  }

  /** A new term, placed at table slot `at` (free); its id. */
  private addTerm(t: string, h: number, at: number): number {
    const id = this.vocab.length;
    this.vocab.push(t);
    if (id >= this.stamp.length) {
      this.stamp = grow(this.stamp, id + 1);
      this.slot = grow(this.slot, id + 1);
      this.termHash = grow(this.termHash, id + 1);
    }
    this.termHash[id] = h;
    this.table[at] = id + 1;
    if ((id + 1) * 2 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.vocab.length; id++) {
      let i = this.termHash[id] & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = id + 1;
    }
    this.table = table;
  }

  /** The id of the ASCII word text[start, end) lower-cased. */
  private asciiTermId(text: string, start: number, end: number): number {
    const h = foldedHash(text, start, end);
    const mask = this.table.length - 1;
    let i = h & mask;
    for (let e = this.table[i]; e !== 0; i = (i + 1) & mask, e = this.table[i]) {
      if (this.termHash[e - 1] === h && isLowerOf(this.vocab[e - 1], text, start, end)) return e - 1;
    }
    return this.addTerm(text.slice(start, end).toLowerCase(), h, i);
  }

  /** The id of the non-ASCII word text[start, end) folded. */
  private rawTermId(text: string, start: number, end: number): number {
    const h = RangeTable.hash(text, start, end);
    const hit = this.rawTerms.find(text, start, end, h);
    if (hit !== undefined) return hit;
    const id = this.termId(foldWord(text, start, end, false));
    this.rawTerms.add(text.slice(start, end), h, id);
    return id;
  }

  /** The id of a folded term (a term of this encoder's vocabulary, or of another's: SegmentBuilder.addPostings). */
  termId(t: string): number {
    const h = foldedHash(t, 0, t.length);
    const mask = this.table.length - 1;
    let i = h & mask;
    for (let e = this.table[i]; e !== 0; i = (i + 1) & mask, e = this.table[i]) {
      if (this.termHash[e - 1] === h && this.vocab[e - 1] === t) return e - 1;
    }
    return this.addTerm(t, h, i);
  }

  /** One document's postings into `sink` (values of the searchable attributes in declared order); its long field's length in words. */
  encode(fields: ReadonlyArray<unknown>, sink: PostingSink): number {
    if (this.table.length === 0) throw new Error("term encoder already finished");
    const mark = ++this.docs;
    let nLocal = 0;
    let longLen = 0;
    const runs = this.runs;
    for (let f = 0; f < this.fieldCount; f++) {
      const v = fields[f];
      const text =
        typeof v === "string" ? v : Array.isArray(v) ? v.filter((x) => typeof x === "string").join(" \u0000 ") : "";
      if (text === "") continue;
      // The words of words(text), as extents (scanWords is the same scanner).
      const n = scanWords(text, runs);
      const isLong = f === this.longField;
      if (isLong) longLen = n;
      const w = fieldWeight(f);
      const bit = 1 << f;
      for (let k = 0; k < n; k++) {
        const id =
          runs.ascii[k] === 1 ? this.asciiTermId(text, runs.start[k], runs.end[k]) : this.rawTermId(text, runs.start[k], runs.end[k]);
        let s: number;
        if (this.stamp[id] === mark) s = this.slot[id];
        else {
          s = nLocal++;
          if (s >= this.localTerms.length) {
            const cap = this.localTerms.length * 2;
            this.localTerms = grow(this.localTerms, cap);
            this.localLong = grow(this.localLong, cap);
            this.localMask = grow(this.localMask, cap);
            this.localShort = grow(this.localShort, cap);
          }
          this.stamp[id] = mark;
          this.slot[id] = s;
          this.localTerms[s] = id;
          this.localShort[s] = 0;
          this.localLong[s] = 0;
          this.localMask[s] = 0;
        }
        this.localMask[s] |= bit;
        if (isLong) this.localLong[s]++;
        else this.localShort[s] += w;
      }
    }
    for (let s = 0; s < nLocal; s++) sink.push(this.localTerms[s], this.localShort[s], this.localLong[s], this.localMask[s]);
    return longLen;
  }

  /** Drop the term table (the vocabulary stays): nothing more will be encoded. */
  finish(): void {
    this.table = new Int32Array(0);
    this.termHash = new Uint32Array(0);
    this.rawTerms = new RangeTable<number>();
  }
}

/** Postings of a run of documents made by a TermEncoder elsewhere (the batch worker), as transferable arrays. */
export interface EncodedPostings {
  /** Terms the encoder met first in these documents, in id order: their ids run from `firstNewTerm`. */
  firstNewTerm: number;
  newTerms: string[];
  /** Per document: the end of its postings in the arrays below, and its long field's length in words. */
  docEnds: Int32Array;
  longLens: Int32Array;
  terms: Uint32Array;
  short: Float32Array;
  long: Uint32Array;
  mask: Uint32Array;
}

/** A growable PostingSink whose contents become EncodedPostings. */
export class PostingBuffer implements PostingSink {
  private terms = new Uint32Array(1 << 16);
  private short = new Float32Array(1 << 16);
  private long = new Uint32Array(1 << 16);
  private mask = new Uint32Array(1 << 16);
  length = 0;

  push(term: number, short: number, long: number, mask: number): void {
    if (this.length === this.terms.length) {
      const cap = this.terms.length * 2;
      this.terms = grow(this.terms, cap);
      this.long = grow(this.long, cap);
      this.mask = grow(this.mask, cap);
      this.short = grow(this.short, cap);
    }
    const i = this.length++;
    this.terms[i] = term;
    this.short[i] = short;
    this.long[i] = long;
    this.mask[i] = mask;
  }

  /** The postings so far (fresh arrays of exactly their length, transferable). */
  take(): Pick<EncodedPostings, "terms" | "short" | "long" | "mask"> {
    const n = this.length;
    return { terms: this.terms.slice(0, n), short: this.short.slice(0, n), long: this.long.slice(0, n), mask: this.mask.slice(0, n) };
  }
}
