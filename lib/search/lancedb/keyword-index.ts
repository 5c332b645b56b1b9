/**
 * In-process keyword index (the LanceDB adapter's keyword path; see docs/search.md for why it is not LanceDB's own
 * FTS). One immutable segment = an inverted index over the searchable attributes of a set of documents:
 *
 * - BM25F-style scoring: per (term, document) a weighted term frequency over the fields, field weights by the
 *   declared searchable order (title first … full_text ninth, base text fields last), length normalisation on
 *   full_text only (the other fields are short);
 * - typo tolerance on the vocabulary (1 typo from 5 letters, 2 from 9; first letter must match, as a cheap and
 *   predictable rule), prefix expansion of the last query word (the most frequent completions);
 * - a per-posting bit mask of the fields holding the term, so `attributesToSearchOn` can restrict matching.
 *
 * Segments are immutable; the engine keeps a main segment plus a small delta segment for incremental upserts and
 * tombstones deleted ids (like Lucene segments).
 */
import { words } from "../text/tokenize";
import { LruCache } from "@/lib/llm/embedders/lru";

export const K1 = 1.2;
export const B = 0.75;

/** Field weights by searchable rank (1-based); anything past the table gets the last weight. */
const RANK_WEIGHTS = [10, 8, 6, 4, 3.5, 3, 3, 2.5, 1, 0.6, 0.6, 0.6, 0.5, 0.5, 0.5, 0.4, 0.4, 0.4];

export function fieldWeight(rankIndex: number): number {
  return RANK_WEIGHTS[Math.min(rankIndex, RANK_WEIGHTS.length - 1)];
}

/** Typo budget of a query word by length (issue 5: one typo from 5 letters, two from 9). */
export function typoBudget(len: number): number {
  return len >= 9 ? 2 : len >= 5 ? 1 : 0;
}

/** Levenshtein distance bounded by `max` (returns max+1 when larger). */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Growable typed buffers for postings while building. */
class PostingBuilder {
  docs = new Uint32Array(4);
  short = new Float32Array(4);
  long = new Uint16Array(4);
  mask = new Uint32Array(4);
  n = 0;

  push(doc: number, short: number, long: number, mask: number): void {
    if (this.n === this.docs.length) {
      const cap = this.n * 2;
      const d = new Uint32Array(cap);
      d.set(this.docs);
      this.docs = d;
      const s = new Float32Array(cap);
      s.set(this.short);
      this.short = s;
      const l = new Uint16Array(cap);
      l.set(this.long);
      this.long = l;
      const m = new Uint32Array(cap);
      m.set(this.mask);
      this.mask = m;
    }
    this.docs[this.n] = doc;
    this.short[this.n] = short;
    this.long[this.n] = Math.min(long, 65535);
    this.mask[this.n] = mask;
    this.n++;
  }
}

export interface SegmentDocInput {
  id: string;
  /** Values of the searchable attributes, in declared order. */
  fields: ReadonlyArray<unknown>;
}

export class SegmentBuilder {
  private readonly ids: string[] = [];
  private readonly terms = new Map<string, PostingBuilder>();
  private readonly longLens: number[] = [];

  constructor(
    private readonly fieldCount: number,
    /** Index of the long field (full_text) among the searchable attributes, or -1. */
    private readonly longField: number,
  ) {
    if (fieldCount > 32) throw new Error("at most 32 searchable attributes (field mask is 32-bit)");
  }

  add(doc: SegmentDocInput): void {
    const ord = this.ids.length;
    this.ids.push(doc.id);
    const perTerm = new Map<string, { short: number; long: number; mask: number }>();
    let longLen = 0;
    for (let f = 0; f < this.fieldCount; f++) {
      const v = doc.fields[f];
      const text =
        typeof v === "string" ? v : Array.isArray(v) ? v.filter((x) => typeof x === "string").join(" \u0000 ") : "";
      if (text === "") continue;
      const ws = words(text);
      if (f === this.longField) longLen = ws.length;
      const w = fieldWeight(f);
      for (const t of ws) {
        let e = perTerm.get(t);
        if (!e) {
          e = { short: 0, long: 0, mask: 0 };
          perTerm.set(t, e);
        }
        e.mask |= 1 << f;
        if (f === this.longField) e.long++;
        else e.short += w;
      }
    }
    this.longLens.push(longLen);
    for (const [t, e] of perTerm) {
      let p = this.terms.get(t);
      if (!p) {
        p = new PostingBuilder();
        this.terms.set(t, p);
      }
      p.push(ord, e.short, e.long, e.mask);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  build(): KeywordSegment {
    const n = this.ids.length;
    let sum = 0;
    for (const l of this.longLens) sum += l;
    const avg = n > 0 && sum > 0 ? sum / n : 1;
    const longW = this.longField >= 0 ? fieldWeight(this.longField) : 0;
    const vocab = [...this.terms.keys()].sort();
    const postDocs: Uint32Array[] = [];
    const postW: Float32Array[] = [];
    const postMask: Uint32Array[] = [];
    for (const t of vocab) {
      const p = this.terms.get(t) as PostingBuilder;
      const w = new Float32Array(p.n);
      for (let i = 0; i < p.n; i++) {
        const len = this.longLens[p.docs[i]];
        const longPart = p.long[i] > 0 ? (longW * p.long[i]) / (1 - B + (B * len) / avg) : 0;
        w[i] = p.short[i] + longPart;
      }
      postDocs.push(p.docs.slice(0, p.n));
      postW.push(w);
      postMask.push(p.mask.slice(0, p.n));
    }
    this.terms.clear();
    return new KeywordSegment(this.ids, vocab, postDocs, postW, postMask);
  }
}

/** One expansion of a query word: a vocabulary term and the penalty applied to its score. */
export interface Expansion {
  term: number;
  penalty: number;
  /** "exact" | "prefix" | "typo": decides how the highlighter marks it. */
  kind: "exact" | "prefix" | "typo";
}

export interface QueryWord {
  text: string;
  /** Prefix expansion allowed (the last word of the query). */
  prefix: boolean;
  /** Typos allowed (false inside quoted phrases). */
  typos: boolean;
}

/** Most frequent completions kept for a prefix (bounds the postings merged per query). */
const MAX_PREFIX_EXPANSIONS = 48;
const MAX_TYPO_EXPANSIONS = 24;

export class KeywordSegment {
  private readonly termIds: Map<string, number>;
  private readonly byFirstChar = new Map<string, number[]>();
  private readonly expansionCache = new LruCache<string, Expansion[]>(5000);

  constructor(
    readonly ids: string[],
    readonly vocab: string[],
    private readonly postDocs: Uint32Array[],
    private readonly postW: Float32Array[],
    private readonly postMask: Uint32Array[],
  ) {
    this.termIds = new Map(vocab.map((t, i) => [t, i]));
    for (let i = 0; i < vocab.length; i++) {
      const c = vocab[i][0];
      let arr = this.byFirstChar.get(c);
      if (!arr) {
        arr = [];
        this.byFirstChar.set(c, arr);
      }
      arr.push(i);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  df(term: number): number {
    return this.postDocs[term].length;
  }

  idf(term: number): number {
    const df = this.df(term);
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  /** Vocabulary terms a query word stands for (exact, typo variants, prefix completions). */
  expand(word: QueryWord): Expansion[] {
    const key = `${word.prefix ? 1 : 0}${word.typos ? 1 : 0}${word.text}`;
    const cached = this.expansionCache.get(key);
    if (cached) return cached;
    const out: Expansion[] = [];
    const seen = new Set<number>();
    const exact = this.termIds.get(word.text);
    if (exact !== undefined) {
      out.push({ term: exact, penalty: 1, kind: "exact" });
      seen.add(exact);
    }
    const budget = word.typos ? typoBudget(word.text.length) : 0;
    if (budget > 0) {
      const typos: Array<Expansion & { dist: number }> = [];
      for (const t of this.byFirstChar.get(word.text[0]) ?? []) {
        if (seen.has(t)) continue;
        const cand = this.vocab[t];
        if (Math.abs(cand.length - word.text.length) > budget) continue;
        const d = boundedLevenshtein(word.text, cand, budget);
        if (d <= budget) typos.push({ term: t, penalty: d === 1 ? 0.55 : 0.35, kind: "typo", dist: d });
      }
      typos.sort((a, b) => a.dist - b.dist || this.df(b.term) - this.df(a.term));
      for (const t of typos.slice(0, MAX_TYPO_EXPANSIONS)) {
        out.push({ term: t.term, penalty: t.penalty, kind: "typo" });
        seen.add(t.term);
      }
    }
    if (word.prefix) {
      const completions: number[] = [];
      for (let i = lowerBound(this.vocab, word.text); i < this.vocab.length; i++) {
        if (!this.vocab[i].startsWith(word.text)) break;
        if (!seen.has(i)) completions.push(i);
      }
      completions.sort((a, b) => this.df(b) - this.df(a));
      for (const t of completions.slice(0, MAX_PREFIX_EXPANSIONS)) {
        out.push({ term: t, penalty: 0.8, kind: "prefix" });
      }
    }
    this.expansionCache.set(key, out);
    return out;
  }

  /**
   * Scores of one query word over the segment: `scores[ord]` = best expansion score (0 = no match).
   * `allowedMask` restricts to postings in those fields (0 = all fields).
   */
  scoreWord(expansions: Expansion[], allowedMask: number, scores: Float32Array, touched: number[]): void {
    for (const e of expansions) {
      const idf = this.idf(e.term) * e.penalty;
      const docs = this.postDocs[e.term];
      const ws = this.postW[e.term];
      const masks = this.postMask[e.term];
      for (let i = 0; i < docs.length; i++) {
        if (allowedMask !== 0 && (masks[i] & allowedMask) === 0) continue;
        const w = ws[i];
        const s = (idf * (w * (K1 + 1))) / (w + K1);
        const d = docs[i];
        if (scores[d] === 0) touched.push(d);
        if (s > scores[d]) scores[d] = s;
      }
    }
  }
}

function lowerBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
