/** One query's keyword matches across the main and delta segments, and the page picked from them in rank order. */
import type { KeywordSegment, SegmentMatches } from "./keyword-segment";
import type { StoredDoc } from "./live-index";
import { boundedTop } from "./top-k";

export interface Candidate {
  id: string;
  /** Query words matched from the start (matching strategy), 0 for placeholder/vector-only. */
  level: number;
  /** Raw keyword score (BM25F). */
  kw: number;
  /** Final score in [0,1]. */
  score: number;
}

/**
 * The keyword matches of one query: views over the segments' match() results (segment ordinal, level, kw), indexed
 * 0..count-1 across the (at most two) segments. A common word matches most of the corpus, and only the page shown
 * needs an id or a `Candidate` object (facets and the total need no order at all). The views are the segments'
 * scratch: everything is read synchronously, before the next query can run match().
 */
export class KeywordMatches {
  count = 0;
  maxKw = 0;
  /** Per match: ordinal in its segment, level, raw keyword score (BM25F). */
  private ords: Int32Array = new Int32Array(0);
  private levels: Uint8Array = new Uint8Array(0);
  private kws: Float64Array = new Float64Array(0);
  private readonly segments: KeywordSegment[] = [];
  /** Matches in the first segment (index i >= first is in the second). */
  private first = 0;

  constructor(
    /** Query words (the score divides by it). */
    readonly wordCount: number,
  ) {}

  /**
   * Add one segment's (already filtered) matches: the first segment's are used in place, a second segment's (the
   * delta, when it matched anything) are copied after them.
   */
  addPart(segment: KeywordSegment, found: SegmentMatches): void {
    if (this.segments.length === 2) throw new Error("at most two segments");
    this.segments.push(segment);
    const n = found.count;
    for (let j = 0; j < n; j++) if (found.kws[j] > this.maxKw) this.maxKw = found.kws[j];
    if (this.segments.length === 1) {
      this.first = n;
      this.ords = found.ords;
      this.levels = found.levels;
      this.kws = found.kws;
    } else if (n > 0) {
      const m = this.count;
      const ords = new Int32Array(m + n);
      ords.set(this.ords.subarray(0, m));
      ords.set(found.ords.subarray(0, n), m);
      const levels = new Uint8Array(m + n);
      levels.set(this.levels.subarray(0, m));
      levels.set(found.levels.subarray(0, n), m);
      const kws = new Float64Array(m + n);
      kws.set(this.kws.subarray(0, m));
      kws.set(found.kws.subarray(0, n), m);
      this.ords = ords;
      this.levels = levels;
      this.kws = kws;
    }
    this.count += n;
  }

  level(i: number): number {
    return this.levels[i];
  }

  /** Raw keyword score (BM25F). */
  kw(i: number): number {
    return this.kws[i];
  }

  id(i: number): string {
    return this.segments[i < this.first ? 0 : 1].ids[this.ords[i]];
  }

  /** How many of `ids` (distinct) are among the matches, compared by segment ordinal rather than by id. */
  countIds(ids: readonly string[]): number {
    let n = 0;
    for (let s = 0; s < this.segments.length; s++) {
      const segIds = this.segments[s].ids;
      const ords: number[] = [];
      for (const id of ids) {
        const o = segIds.indexOf(id);
        if (o >= 0) ords.push(o);
      }
      if (ords.length === 0) continue;
      const hi = s === 0 ? this.first : this.count;
      for (let i = s === 0 ? 0 : this.first; i < hi; i++) if (ords.includes(this.ords[i])) n++;
    }
    return n;
  }

  ids(): string[] {
    const out: string[] = new Array(this.count);
    for (let i = 0; i < out.length; i++) out[i] = this.id(i);
    return out;
  }

  /** The keyword score in [0, 1]: matched words, plus the raw score relative to the best, per query word. */
  score(i: number): number {
    const maxKw = this.maxKw;
    return (this.level(i) - 1 + (maxKw > 0 ? this.kw(i) / maxKw : 0)) / this.wordCount;
  }

  candidate(i: number): Candidate {
    return { id: this.id(i), level: this.level(i), kw: this.kw(i), score: this.score(i) };
  }

  /**
   * The order of two matches' ids (negative when a's is first; a != b): by the segments' id ranks (integers) when both
   * are in the same segment, as strings otherwise.
   */
  private idOrder(): (a: number, b: number) => number {
    const ords = this.ords;
    const first = this.first;
    const r0 = this.segments.length > 0 ? this.segments[0].idRank() : new Int32Array(0);
    const r1 = this.segments.length > 1 ? this.segments[1].idRank() : r0;
    return (a, b) => {
      if (a < first) {
        if (b < first) return r0[ords[a]] - r0[ords[b]];
      } else if (b >= first) return r1[ords[a]] - r1[ords[b]];
      return this.id(a) < this.id(b) ? -1 : 1;
    };
  }

  /** Per match, what `rowOf(segment)[ordinal]` says (the hybrid path: the match's vector row). */
  perOrdinal(rowOf: (segment: KeywordSegment) => Int32Array): Int32Array {
    const out = new Int32Array(this.count);
    for (let s = 0; s < this.segments.length; s++) {
      const map = rowOf(this.segments[s]);
      const hi = s === 0 ? this.first : this.count;
      for (let i = s === 0 ? 0 : this.first; i < hi; i++) out[i] = map[this.ords[i]];
    }
    return out;
  }

  /**
   * The first `k` matches in rank order (level desc, then the requested sort, then kw desc, then id asc: a total
   * order, ids being unique) by a bounded heap instead of sorting every match, so the page is exactly the prefix a
   * full sort would give.
   */
  top(k: number, sortDocs: ((i: number) => StoredDoc) | null, cmpSort: ((a: StoredDoc, b: StoredDoc) => number) | null): number[] {
    if (!cmpSort || !sortDocs) return this.topByRank(k);
    const idBefore = this.idOrder();
    const before = (a: number, b: number): number =>
      this.level(b) - this.level(a) || cmpSort(sortDocs(a), sortDocs(b)) || this.kw(b) - this.kw(a) || idBefore(a, b);
    // Most matches rank after the current k-th on level: skip the comparator for them.
    return boundedTop(this.count, k, before, (i, worst) => this.level(i) < this.level(worst));
  }

  /**
   * top() without a sort: boundedTop's algorithm with its rejection test (level, then kw, against the k-th so far)
   * read straight from the typed arrays, because a common word's matches are tens of thousands at 10x the demo
   * corpus and a call through boundedTop's shared closures per match cost more than the test itself.
   */
  private topByRank(k: number): number[] {
    const n = this.count;
    const lv = this.levels;
    const kw = this.kws;
    const idBefore = this.idOrder();
    const before = (a: number, b: number): number => lv[b] - lv[a] || kw[b] - kw[a] || idBefore(a, b);
    if (k <= 0 || n <= 0) return [];
    if (k >= n) return Array.from({ length: n }, (_, i) => i).sort(before);
    // A max-heap in `before` order: heap[0] is the last of the k best so far.
    const heap = new Int32Array(k);
    let size = 0;
    let worstLevel = 0;
    let worstKw = 0;
    for (let x = 0; x < n; x++) {
      if (size < k) {
        let c = size++;
        heap[c] = x;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (before(heap[c], heap[p]) <= 0) break;
          const t = heap[c];
          heap[c] = heap[p];
          heap[p] = t;
          c = p;
        }
        if (size === k) {
          worstLevel = lv[heap[0]];
          worstKw = kw[heap[0]];
        }
        continue;
      }
      // Whether x ranks before the k-th so far, inline: a common word's matches tie with it on level and score by
      // the thousand, so most reach the id comparison.
      const l = lv[x];
      if (l < worstLevel) continue;
      if (l === worstLevel) {
        const s = kw[x];
        if (s < worstKw || (s === worstKw && idBefore(x, heap[0]) > 0)) continue;
      }
      heap[0] = x;
      let c = 0;
      for (;;) {
        const left = 2 * c + 1;
        if (left >= k) break;
        const right = left + 1;
        const w = right < k && before(heap[right], heap[left]) > 0 ? right : left;
        if (before(heap[w], heap[c]) <= 0) break;
        const t = heap[c];
        heap[c] = heap[w];
        heap[w] = t;
        c = w;
      }
      worstLevel = lv[heap[0]];
      worstKw = kw[heap[0]];
    }
    return Array.from(heap).sort(before);
  }
}
