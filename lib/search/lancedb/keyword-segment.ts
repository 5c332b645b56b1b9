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
 * Segments are immutable typed arrays (CSR), persisted per generation by snapshot.ts; the engine keeps a main
 * segment plus a small delta segment for incremental upserts and tombstones deleted ids (like Lucene segments).
/** One expansion of a query word: a vocabulary term and the penalty applied to its score. */
import { LruCache } from "@/lib/lru";
import { K1 } from "./keyword-scoring";
import { boundedLevenshtein, typoBudget } from "../text/typos";

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

/**
 * A gated word's expansion with more than this many postings per document of the gate is searched for those documents
 * (KeywordSegment.gallop: about log2(postings / documents) probes each) instead of read whole (a read and a random
 * gate lookup per posting).
 */
let gallopRatio = 12;

/** Tests: gallop from another ratio (0: always, Infinity: never); null restores. */
export function setGallopRatio(ratio: number | null): void {
  gallopRatio = ratio ?? 12;
}

/** restricted() derives a field restriction's postings when they are at most this share of all postings. */
let restrictedShare = 0.25;

/** Tests: derive restricted postings from another share of all postings (0: never, 1: always); null restores. */
export function setRestrictedPostingsShare(share: number | null): void {
  restrictedShare = share ?? 0.25;
}

/** Most frequent completions kept for a prefix (bounds the postings merged per query). */
const MAX_PREFIX_EXPANSIONS = 48;
const MAX_TYPO_EXPANSIONS = 24;

/** The arrays a segment is made of (what snapshot.ts writes and reads). */
export interface SegmentParts {
  ids: string[];
  /** Sorted (UTF-16 code unit order). */
  vocab: string[];
  /** Postings of term t are [offsets[t], offsets[t+1]) in the three arrays below (CSR). */
  offsets: Uint32Array;
  docs: Uint32Array;
  weights: Float32Array;
  masks: Uint32Array;
}

/**
 * An immutable segment in compressed-sparse-row form: one typed array per posting attribute for the whole
 * segment, so memory is ~12 bytes per posting with no per-term objects, and the arrays can be written to and
 * read from disk as they are. Term ids are ranks in the sorted vocabulary; lookups are binary searches.
 */
export class KeywordSegment {
  private readonly expansionCache = new LruCache<string, Expansion[]>(5000);
  /** restricted() per field mask (null: not worth deriving for that mask). */
  private readonly restrictions = new Map<number, RestrictedPostings | null>();

  constructor(
    readonly ids: string[],
    readonly vocab: string[],
    private readonly offsets: Uint32Array,
    private readonly postDocs: Uint32Array,
    private readonly postW: Float32Array,
    private readonly postMask: Uint32Array,
  ) {}

  static fromParts(p: SegmentParts): KeywordSegment {
    return new KeywordSegment(p.ids, p.vocab, p.offsets, p.docs, p.weights, p.masks);
  }

  parts(): SegmentParts {
    return {
      ids: this.ids,
      vocab: this.vocab,
      offsets: this.offsets,
      docs: this.postDocs,
      weights: this.postW,
      masks: this.postMask,
    };
  }

  get size(): number {
    return this.ids.length;
  }

  private idRanks: Int32Array | null = null;

  /**
   * Each ordinal's rank among the segment's ids (ids[a] < ids[b] exactly when ranks[a] < ranks[b]), worked out on
   * first use: the page's last tie-break is the id, and a common word's matches tie on level and score by the
   * thousand, so comparing ids as strings was a third of a one-word search. A full build's ids are sorted (ranks are
   * the ordinals; one pass checks it), a delta's are sorted here once.
   */
  idRank(): Int32Array {
    if (this.idRanks) return this.idRanks;
    const ids = this.ids;
    const n = ids.length;
    const ranks = new Int32Array(n);
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) if (!(ids[i - 1] < ids[i])) sorted = false;
    if (sorted) for (let i = 0; i < n; i++) ranks[i] = i;
    else {
      const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
      for (let r = 0; r < n; r++) ranks[order[r]] = r;
    }
    this.idRanks = ranks;
    return ranks;
  }

  get postingCount(): number {
    return this.postDocs.length;
  }

  df(term: number): number {
    return this.offsets[term + 1] - this.offsets[term];
  }

  idf(term: number): number {
    const df = this.df(term);
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  /** The ordinals of the documents holding the folded word `text` exactly, ascending (empty when it is not a term). */
  docsWithTerm(text: string): Uint32Array {
    const t = this.termOf(text);
    if (t === undefined) return new Uint32Array(0);
    return this.postDocs.subarray(this.offsets[t], this.offsets[t + 1]);
  }

  private termOf(text: string): number | undefined {
    const i = lowerBound(this.vocab, text);
    return i < this.vocab.length && this.vocab[i] === text ? i : undefined;
  }

  /** Vocabulary terms a query word stands for (exact, typo variants, prefix completions). */
  expand(word: QueryWord): Expansion[] {
    const key = `${word.prefix ? 1 : 0}${word.typos ? 1 : 0}${word.text}`;
    const cached = this.expansionCache.get(key);
    if (cached) return cached;
    const out: Expansion[] = [];
    const seen = new Set<number>();
    const exact = this.termOf(word.text);
    if (exact !== undefined) {
      out.push({ term: exact, penalty: 1, kind: "exact" });
      seen.add(exact);
    }
    const budget = word.typos ? typoBudget(word.text.length) : 0;
    if (budget > 0) {
      const typos: Array<Expansion & { dist: number }> = [];
      // Terms sharing the first UTF-16 unit are one contiguous range of the sorted vocabulary.
      const first = word.text.charCodeAt(0);
      const from = lowerBound(this.vocab, String.fromCharCode(first));
      const to = lowerBound(this.vocab, String.fromCharCode(first + 1));
      for (let t = from; t < to; t++) {
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
   * `allowedMask` restricts to postings in those fields (0 = all fields). With `gate` (the first word's scores),
   * only documents the first word matched are scored; without it, every document scored is appended to `touched`
   * (once: its score goes from 0 to positive once) and the new length is returned.
   */
  private scoreWord(
    expansions: Expansion[],
    allowedMask: number,
    scores: Float32Array,
    gate: Float32Array | null,
    touched: Int32Array,
    nTouched: number,
    /** With a gate: the gate's documents are touched[0..gateCount) in ascending order (-1: not sorted). */
    gateCount = -1,
  ): number {
    // A field restriction reads the postings restricted to those fields when they are derived (restricted()), with
    // the loops of the unrestricted case; else every posting, checking its mask.
    const sub = allowedMask === 0 ? null : this.restricted(allowedMask);
    const offsets = sub ? sub.offsets : this.offsets;
    const docs = sub ? sub.docs : this.postDocs;
    const ws = sub ? sub.weights : this.postW;
    const masks = this.postMask;
    const mask = sub ? 0 : allowedMask;
    for (const e of expansions) {
      const idf = this.idf(e.term) * e.penalty;
      const end = offsets[e.term + 1];
      if (gate !== null && gateCount >= 0 && end - offsets[e.term] > gateCount * gallopRatio) {
        this.gallop(offsets[e.term], end, docs, ws, mask === 0 ? null : masks, mask, idf, scores, touched, gateCount);
        continue;
      }
      // The two common cases get loops of their own (no field restriction; first word or a gated one).
      if (mask === 0 && gate === null) {
        for (let i = offsets[e.term]; i < end; i++) {
          const d = docs[i];
          const w = ws[i];
          const s = (idf * (w * (K1 + 1))) / (w + K1);
          const prev = scores[d];
          if (s > prev) {
            if (prev === 0) touched[nTouched++] = d;
            scores[d] = s;
          }
        }
        continue;
      }
      if (mask === 0 && gate !== null) {
        for (let i = offsets[e.term]; i < end; i++) {
          const d = docs[i];
          if (gate[d] === 0) continue;
          const w = ws[i];
          const s = (idf * (w * (K1 + 1))) / (w + K1);
          if (s > scores[d]) scores[d] = s;
        }
        continue;
      }
      for (let i = offsets[e.term]; i < end; i++) {
        if ((masks[i] & mask) === 0) continue;
        const d = docs[i];
        if (gate !== null && gate[d] === 0) continue;
        const w = ws[i];
        const s = (idf * (w * (K1 + 1))) / (w + K1);
        const prev = scores[d];
        if (s > prev) {
          if (gate === null && prev === 0) touched[nTouched++] = d;
          scores[d] = s;
        }
      }
    }
    return nTouched;
  }

  /** Whether some expansion has more than `limit` postings (in the fields of `allowedMask` when derived). */
  private anyLongerThan(expansions: Expansion[], allowedMask: number, limit: number): boolean {
    const sub = allowedMask === 0 ? null : this.restricted(allowedMask);
    const offsets = sub ? sub.offsets : this.offsets;
    for (const e of expansions) if (offsets[e.term + 1] - offsets[e.term] > limit) return true;
    return false;
  }

  /**
   * The gated loop of scoreWord for one expansion (postings [from, end), documents ascending), visiting only the
   * gate's documents `targets[0..count)` (ascending): each is found by galloping from the previous position, so the
   * cost is about count × log(postings / count) instead of every posting. Same scores as reading them all.
   */
  private gallop(
    from: number,
    end: number,
    docs: Uint32Array,
    ws: Float32Array,
    masks: Uint32Array | null,
    mask: number,
    idf: number,
    scores: Float32Array,
    targets: Int32Array,
    count: number,
  ): void {
    let i = from;
    for (let g = 0; g < count && i < end; g++) {
      const t = targets[g];
      if (docs[i] < t) {
        // docs[lo] < t; double the step until docs[hi] >= t (or the end), then bisect (lo, hi].
        let lo = i;
        let step = 1;
        let hi = i + 1;
        while (hi < end && docs[hi] < t) {
          lo = hi;
          step *= 2;
          hi = lo + step;
        }
        if (hi > end) hi = end;
        lo++;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (docs[mid] < t) lo = mid + 1;
          else hi = mid;
        }
        i = lo;
        if (i >= end) break;
      }
      if (docs[i] !== t) continue;
      if (masks === null || (masks[i] & mask) !== 0) {
        const w = ws[i];
        const s = (idf * (w * (K1 + 1))) / (w + K1);
        if (s > scores[t]) scores[t] = s;
      }
      i++;
    }
  }

  /**
   * The postings whose fields intersect `mask` (same terms, documents and weights; a CSR of their own), derived on
   * the first search restricted to those fields: autocomplete searches six short fields, whose postings are a small
   * share of all (full_text has most), and at 10x the demo corpus reading every posting of a common prefix's
   * completions to check its mask was most of autocomplete's time. Kept for at most two masks, and only when the
   * restriction keeps at most a quarter of the postings (else the mask check costs less than the memory); null
   * otherwise (the caller checks masks).
   */
  private restricted(mask: number): RestrictedPostings | null {
    const known = this.restrictions.get(mask);
    if (known !== undefined) return known;
    const masks = this.postMask;
    const total = masks.length;
    const V = this.vocab.length;
    const offsets = new Uint32Array(V + 1);
    let kept = 0;
    for (let t = 0; t < V; t++) {
      for (let i = this.offsets[t], end = this.offsets[t + 1]; i < end; i++) if ((masks[i] & mask) !== 0) kept++;
      offsets[t + 1] = kept;
    }
    let out: RestrictedPostings | null = null;
    if (kept <= total * restrictedShare) {
      const docs = new Uint32Array(kept);
      const weights = new Float32Array(kept);
      let j = 0;
      for (let i = 0; i < total; i++) {
        if ((masks[i] & mask) === 0) continue;
        docs[j] = this.postDocs[i];
        weights[j++] = this.postW[i];
      }
      out = { offsets, docs, weights };
    }
    // Remembered either way (a refusal too); at most two masks held, the oldest dropped.
    if (this.restrictions.size >= 2) this.restrictions.delete(this.restrictions.keys().next().value as number);
    this.restrictions.set(mask, out);
    return out;
  }

  // Scratch of match(), reused across queries instead of a Float32Array(size) per query word: per word a score per
  // document, the documents the first word matched, and the result. match() is synchronous and leaves the score
  // arrays zeroed again, so queries in flight at once never see each other's scratch.
  private scratchScores: Float32Array[] = [];
  private scratch: SegmentMatches | null = null;

  /**
   * Documents matching a query under the matching strategy: every document whose first `level >= minLevel` words
   * all match (level = query words matched from the start) and that matches every `required` word, with kw = the
   * sum of its word scores (added in query-word order), in no particular order. minLevel is at least 1, so only
   * documents the first word matches can qualify: the other words are scored on those alone.
   *
   * With `accept`, only the documents it accepts (a filter's answers per ordinal, see MatchFilter) are kept: asked in
   * the same pass, instead of a second pass over every match (a common word matches most of the corpus).
   *
   * The result lives in scratch arrays: read it before the next match() on this segment.
   */
  match(
    expansions: Expansion[][],
    required: readonly boolean[],
    minLevel: number,
    allowedMask: number,
    accept: MatchFilter | null = null,
  ): SegmentMatches {
    const n = expansions.length;
    const size = this.ids.length;
    this.scratch ??= {
      count: 0,
      ords: new Int32Array(size),
      levels: new Uint8Array(size),
      kws: new Float64Array(size),
    };
    const out = this.scratch;
    out.count = 0;
    if (n === 0 || size === 0) return out;
    while (this.scratchScores.length < n) this.scratchScores.push(new Float32Array(size));
    const perWord = this.scratchScores;
    const first = perWord[0];
    const touched = out.ords;
    const need = Math.max(1, minLevel);
    const verdicts = accept ? accept.verdicts : null;
    let count = 0;
    let done = false;
    try {
      const nTouched = this.scoreWord(expansions[0], allowedMask, first, null, touched, 0);
      // The other words only on the first word's documents: an expansion whose postings far outnumber them is
      // searched for those documents (ascending, galloping) instead of read whole (a rare word, then a common one).
      let sorted = false;
      for (let i = 1; i < n; i++) {
        if (!sorted && this.anyLongerThan(expansions[i], allowedMask, nTouched * gallopRatio)) {
          touched.subarray(0, nTouched).sort();
          sorted = true;
        }
        this.scoreWord(expansions[i], allowedMask, perWord[i], first, touched, 0, sorted ? nTouched : -1);
      }
      // Compacts the touched list in place into the matches (count <= j throughout). One and two words (every
      // autocomplete keystroke, most searches) get loops of their own: a common prefix touches most of the corpus,
      // and the general loop's per-word inner loops cost as much as the scoring. Same levels, scores and order.
      if (n <= 2) {
        const second = n === 2 ? perWord[1] : null;
        const required1 = n === 2 && required[1];
        const levels = out.levels;
        const kws = out.kws;
        for (let j = 0; j < nTouched; j++) {
          const d = touched[j];
          const s0 = first[d];
          first[d] = 0;
          let level = 1;
          let kw = s0;
          if (second !== null) {
            const s1 = second[d];
            second[d] = 0;
            if (s1 > 0) {
              kw += s1;
              level = 2;
            } else if (required1) continue;
          }
          // A touched document's first score is positive; level < need only when "all" asks for both words.
          if (!(s0 > 0) || level < need) continue;
          if (verdicts !== null) {
            let v = verdicts[d];
            if (v === 0) v = (accept as MatchFilter).decide(d);
            if (v !== 1) continue;
          }
          touched[count] = d;
          levels[count] = level;
          kws[count] = kw;
          count++;
        }
        done = true;
        out.count = count;
        return out;
      }
      for (let j = 0; j < nTouched; j++) {
        const d = touched[j];
        let level = 0;
        let counting = true;
        let ok = true;
        let kw = 0;
        for (let i = 0; i < n; i++) {
          const s = perWord[i][d];
          if (s > 0) {
            kw += s;
            if (counting) level++;
          } else {
            counting = false;
            if (required[i]) ok = false;
          }
        }
        // Zero this document's scores now that they are read (only first-word documents were ever written).
        for (let i = 0; i < n; i++) perWord[i][d] = 0;
        if (!ok || level < need) continue;
        if (verdicts !== null) {
          let v = verdicts[d];
          if (v === 0) v = (accept as MatchFilter).decide(d);
          if (v !== 1) continue;
        }
        touched[count] = d;
        out.levels[count] = level;
        out.kws[count] = kw;
        count++;
      }
      done = true;
    } finally {
      // Something above threw: leave the scratch zeroed all the same.
      if (!done) for (const scores of perWord) scores.fill(0);
    }
    out.count = count;
    return out;
  }
}

/** A segment's postings restricted to some fields (KeywordSegment.restricted): offsets per term, documents, weights. */
interface RestrictedPostings {
  offsets: Uint32Array;
  docs: Uint32Array;
  weights: Float32Array;
}

/**
 * A filter's answers per segment ordinal for match(): verdicts[ord] is 1 (kept), 2 (dropped) or 0 (not known yet:
 * decide(ord) works it out, records it in verdicts and returns it).
 */
export interface MatchFilter {
  verdicts: Uint8Array;
  decide(ord: number): number;
}

/** What KeywordSegment.match() found: ords[i], levels[i], kws[i] for i < count (scratch arrays, see match()). */
export interface SegmentMatches {
  count: number;
  ords: Int32Array;
  levels: Uint8Array;
  kws: Float64Array;
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
