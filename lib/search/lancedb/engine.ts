/**
 * The embedded `SearchEngine` (ARCHITECTURE: "lancedb … the embedded default"). LanceDB holds the durable data
 * (documents with their vectors, chunks with theirs) and answers chunk search; the keyword path is an in-process
 * inverted index (keyword-index.ts) built with each generation and persisted next to it (snapshot.ts, loaded on
 * open; rebuilt from the documents table when missing), and document vectors are scanned in memory (12k × 384
 * floats is 18 MB, plus a column-major copy of it so a query reads only the columns of its non-zero components:
 * about 1 ms; filters apply with exactly the same semantics as the keyword path). docs/search.md says why (measured: LanceDB's native FTS has no per-field weights,
 * typo budget by word length, prefix on the last word, or highlights).
 */
import { performance } from "node:perf_hooks";
import type * as lancedb from "@lancedb/lancedb";
import { DocumentNotFoundError, SearchEngineError, SemanticUnavailableError } from "../errors";
import { compileFilter, filterAttributes, toLanceSql, type FilterNode, type Predicate } from "../filter";
import type { FilterDoc } from "../filter/evaluate";
import { LruCache } from "@/lib/lru";
import type { SqlColumnKind } from "../filter/to-sql";
import {
  AUTOCOMPLETE_DEFAULTS,
  DISPLAYED_ATTRIBUTES,
  MAX_TOTAL_HITS,
  SEARCHABLE_ATTRIBUTES,
  embedderSettings,
  indexSettings,
  type IndexSettings,
} from "../index-settings";
import { CITATION_FIELDS, CitationIndex, queryCitationKeys } from "../citations";
import { fold, words } from "../text/tokenize";
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  Embedder,
  EngineHealth,
  FacetsRequest,
  FacetsResponse,
  FullSyncOptions,
  FullSyncSession,
  HitDocument,
  IndexBatch,
  IndexDocument,
  SearchChunksRequest,
  SearchChunksResponse,
  SearchDocumentsRequest,
  SearchDocumentsResponse,
  SearchEngine,
  SearchHit,
  SimilarRequest,
  SimilarResponse,
  SortSpec,
  Suggestion,
  SuggestRequest,
  SuggestResponse,
  SyncCounts,
  SyncPort,
  TopicHit,
} from "../types";
import { crop, highlight, type MarkTerms } from "./highlight";
import { appendDelta, readDelta, type DeltaEntry } from "./delta-log";
import { KeywordSegment, SegmentBuilder, type QueryWord, type SegmentMatches } from "./keyword-index";
import { readSnapshot, writeSnapshot, type Snapshot } from "./snapshot";
import { SearchStore, chunksTable, docsTable, type StoreState } from "./store";

export interface LanceDbEngineOptions {
  dir: string;
  embedder: Embedder;
}

const DISPLAYED = new Set(DISPLAYED_ATTRIBUTES);
const LONG_FIELD = SEARCHABLE_ATTRIBUTES.indexOf("full_text");
const CHUNK_COLUMNS = new Map<string, SqlColumnKind>([
  ["jurisdiction", "text"],
  ["decision_date_ts", "number"],
]);

/** The document kept in memory: everything but full_text. */
type StoredDoc = IndexDocument;

interface Candidate {
  id: string;
  /** Query words matched from the start (matching strategy), 0 for placeholder/vector-only. */
  level: number;
  /** Raw keyword score (BM25F). */
  kw: number;
  /** Final score in [0,1]. */
  score: number;
}

interface ParsedQuery {
  words: QueryWord[];
  /** Words that can never be dropped by the matching strategy (quoted phrases). */
  required: boolean[];
}

/** Splits a query into words; "quoted phrases" are required words without typos or prefix. */
export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { words: [], required: [] };
  const re = /"([^"]*)"?|([^"]+)/g;
  for (const m of q.matchAll(re)) {
    if (m[1] !== undefined) {
      for (const w of words(m[1])) {
        out.words.push({ text: w, prefix: false, typos: false });
        out.required.push(true);
      }
    } else if (m[2] !== undefined) {
      for (const w of words(m[2])) {
        out.words.push({ text: w, prefix: false, typos: true });
        out.required.push(false);
      }
    }
  }
  // Prefix on the last word unless the query ends with a space or a closing quote (Meilisearch behaviour).
  const last = out.words.length - 1;
  if (last >= 0 && !out.required[last] && /[\p{L}\p{N}]$/u.test(q)) out.words[last].prefix = true;
  // Meilisearch caps queries at 10 words; so do we (bounds the work per query).
  out.words = out.words.slice(0, 10);
  out.required = out.required.slice(0, 10);
  return out;
}

/**
 * Document vectors in dimension-major order: component d of row r at `cols[d * rows + r]`. A query then reads only
 * the columns of its non-zero components (the lexical embedder's query vectors have a few dozen of 384), each as one
 * contiguous run, and the rows' sums are independent (no chain of dependent additions as in a row's dot product).
 * `finite`: every component is finite, so a zero query component adds exactly +0 or -0 to a row's sum (which leaves
 * it unchanged) and can be skipped.
 */
export interface VectorColumns {
  rows: number;
  dim: number;
  cols: Float32Array;
  finite: boolean;
}

/** The column-major copy of the first `rows` rows of a row-major matrix (see VectorColumns). */
export function vectorColumns(vectors: Float32Array<ArrayBufferLike>, rows: number, dim: number): VectorColumns {
  const cols = new Float32Array(rows * dim);
  // x * 0 is 0 for every finite x and NaN otherwise: one NaN check at the end instead of a branch per component.
  let check = 0;
  // Rows in blocks so the writes of a block stay in cache (a plain transpose writes one cache line per component).
  const BLOCK = 64;
  for (let r0 = 0; r0 < rows; r0 += BLOCK) {
    const r1 = Math.min(rows, r0 + BLOCK);
    for (let d = 0; d < dim; d++) {
      const base = d * rows;
      for (let r = r0; r < r1; r++) {
        const x = vectors[r * dim + d];
        check += x * 0;
        cols[base + r] = x;
      }
    }
  }
  return { rows, dim, cols, finite: check === 0 };
}

/**
 * out[r] = the dot product of row r with `q`, bit for bit what `let s = 0; for (d = 0; d < dim; d++) s += v[d] * q[d]`
 * gives: every row adds its products in ascending d, in double precision (a float32 product is exact in a double).
 * Only the query's non-zero components are read when the stored components are all finite (see VectorColumns).
 * Eight columns a pass keep each row's running sum in a register for eight additions.
 */
export function scanSimilarities(vc: VectorColumns, q: Float32Array, out: Float64Array): void {
  const { rows, dim, cols } = vc;
  const used = new Int32Array(dim);
  let m = 0;
  for (let d = 0; d < dim; d++) if (!vc.finite || q[d] !== 0) used[m++] = d;
  out.fill(0, 0, rows);
  let j = 0;
  for (; j + 8 <= m; j += 8) {
    const d0 = used[j], d1 = used[j + 1], d2 = used[j + 2], d3 = used[j + 3];
    const d4 = used[j + 4], d5 = used[j + 5], d6 = used[j + 6], d7 = used[j + 7];
    const q0 = q[d0], q1 = q[d1], q2 = q[d2], q3 = q[d3], q4 = q[d4], q5 = q[d5], q6 = q[d6], q7 = q[d7];
    const b0 = d0 * rows, b1 = d1 * rows, b2 = d2 * rows, b3 = d3 * rows;
    const b4 = d4 * rows, b5 = d5 * rows, b6 = d6 * rows, b7 = d7 * rows;
    for (let r = 0; r < rows; r++) {
      let s = out[r];
      s += cols[b0 + r] * q0;
      s += cols[b1 + r] * q1;
      s += cols[b2 + r] * q2;
      s += cols[b3 + r] * q3;
      s += cols[b4 + r] * q4;
      s += cols[b5 + r] * q5;
      s += cols[b6 + r] * q6;
      s += cols[b7 + r] * q7;
      out[r] = s;
    }
  }
  for (; j < m; j++) {
    const d = used[j];
    const qd = q[d];
    const b = d * rows;
    for (let r = 0; r < rows; r++) out[r] += cols[b + r] * qd;
  }
}

/**
 * The first `k` of the items 0..n-1 in the total order `before` (negative when a ranks first), in that order: a
 * bounded max-heap whose root is the last of the k best so far, so the result is exactly the prefix a full sort gives.
 * `skip(x, worst)`, when given, must only say true for items that rank after `worst`: it rejects them without `before`.
 */
function boundedTop(
  n: number,
  k: number,
  before: (a: number, b: number) => number,
  skip: ((x: number, worst: number) => boolean) | null,
): number[] {
  if (k <= 0 || n <= 0) return [];
  if (k >= n) return Array.from({ length: n }, (_, i) => i).sort(before);
  const heap: number[] = [];
  for (let x = 0; x < n; x++) {
    if (heap.length < k) {
      heap.push(x);
      let c = heap.length - 1;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (before(heap[c], heap[p]) <= 0) break;
        [heap[c], heap[p]] = [heap[p], heap[c]];
        c = p;
      }
      continue;
    }
    if (skip && skip(x, heap[0])) continue;
    if (before(x, heap[0]) >= 0) continue;
    heap[0] = x;
    let c = 0;
    for (;;) {
      const l = 2 * c + 1;
      if (l >= k) break;
      const r = l + 1;
      const w = r < k && before(heap[r], heap[l]) > 0 ? r : l;
      if (before(heap[w], heap[c]) <= 0) break;
      [heap[c], heap[w]] = [heap[w], heap[c]];
      c = w;
    }
  }
  return heap.sort(before);
}

/**
 * `boundedTop` for orders that rank by `key` descending first: `key` rejects most items without calling `before`.
 */
export function topK(n: number, k: number, before: (a: number, b: number) => number, key: Float64Array | null): number[] {
  return boundedTop(n, k, before, key ? (x, worst) => key[x] < key[worst] : null);
}

/**
 * The first `k` of the items 0..n-1 that `accept` (a filter), in the order of `key` descending, then `tie`: exactly
 * the first k accepted items of that order (keys are finite). `accept` is asked at most once per item and in rank
 * order, about as few items as it can: the best 2k (a bounded selection), and only when fewer than k of those pass,
 * the following ones one at a time from a heap of every item (the best similarities can all fail a filter).
 */
export function topKAccepted(
  n: number,
  k: number,
  key: Float64Array,
  tie: (a: number, b: number) => number,
  accept: (i: number) => boolean,
): number[] {
  if (k <= 0 || n <= 0) return [];
  /** 0: not asked yet, 1: accepted, 2: rejected. */
  const verdict = new Uint8Array(n);
  const take = (x: number, out: number[]): boolean => {
    if (verdict[x] === 0) verdict[x] = accept(x) ? 1 : 2;
    return verdict[x] === 1 && out.push(x) === k;
  };
  const out: number[] = [];
  const best = topK(n, 2 * k, (a, b) => key[b] - key[a] || tie(a, b), key);
  for (const x of best) if (take(x, out)) return out;
  if (best.length >= n) return out;
  // A max-heap of every item in that order, popped until k are accepted.
  const first = (a: number, b: number): boolean => key[a] > key[b] || (key[a] === key[b] && tie(a, b) < 0);
  const heap = new Int32Array(n);
  for (let i = 0; i < n; i++) heap[i] = i;
  let size = n;
  const siftDown = (start: number): void => {
    let c = start;
    const x = heap[c];
    for (;;) {
      let w = 2 * c + 1;
      if (w >= size) break;
      if (w + 1 < size && first(heap[w + 1], heap[w])) w++;
      if (!first(heap[w], x)) break;
      heap[c] = heap[w];
      c = w;
    }
    heap[c] = x;
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  out.length = 0;
  while (size > 0) {
    const x = heap[0];
    heap[0] = heap[--size];
    siftDown(0);
    if (take(x, out)) return out;
  }
  return out;
}

/** The engine's vector scan state (LanceDbEngine.vectorIndex). */
interface VectorIndex {
  /** docsVersion and `vectors` it was built from. */
  version: number;
  vectors: Float32Array<ArrayBufferLike>;
  columns: VectorColumns;
  /** The stored document of each row (what a filter is evaluated on). */
  docs: Array<StoredDoc | undefined>;
  /** Scratch: similarity per row (engine-wide: read it synchronously). */
  sims: Float64Array;
}

/** What `list.slice(start, end)` keeps of a list of n: [from, to) (negative, fractional and NaN bounds as slice). */
export function sliceBounds(start: number, end: number, n: number): { from: number; to: number } {
  const clamp = (x: number): number => {
    const t = Number.isNaN(x) ? 0 : Math.trunc(x);
    return t < 0 ? Math.max(n + t, 0) : Math.min(t, n);
  };
  const from = clamp(start);
  return { from, to: Math.max(from, clamp(end)) };
}

function compareValues(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const as = Array.isArray(a) ? String(a[0] ?? "") : String(a);
  const bs = Array.isArray(b) ? String(b[0] ?? "") : String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
}

function sortComparator(sort: readonly SortSpec[], docs: Map<string, StoredDoc>): (a: Candidate, b: Candidate) => number {
  const cmp = docComparator(sort);
  return (x, y) => cmp(docs.get(x.id) as StoredDoc, docs.get(y.id) as StoredDoc);
}

function docComparator(sort: readonly SortSpec[]): (dx: StoredDoc, dy: StoredDoc) => number {
  return (dx, dy) => {
    for (const s of sort) {
      const vx = dx[s.attribute];
      const vy = dy[s.attribute];
      const nx = vx === null || vx === undefined;
      const ny = vy === null || vy === undefined;
      // Missing values go last in both directions (Meilisearch).
      if (nx || ny) {
        if (nx && ny) continue;
        return nx ? 1 : -1;
      }
      const c = compareValues(vx, vy);
      if (c !== 0) return s.direction === "asc" ? c : -c;
    }
    return 0;
  };
}

/**
 * The keyword matches of one query: views over the segments' match() results (segment ordinal, level, kw), indexed
 * 0..count-1 across the (at most two) segments. A common word matches most of the corpus, and only the page shown
 * needs an id or a `Candidate` object (facets and the total need no order at all). The views are the segments'
 * scratch: everything is read synchronously, before the next query can run match().
 */
class KeywordMatches {
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
    const before = (a: number, b: number): number =>
      this.level(b) - this.level(a) ||
      (cmpSort && sortDocs ? cmpSort(sortDocs(a), sortDocs(b)) : 0) ||
      this.kw(b) - this.kw(a) ||
      (this.id(a) < this.id(b) ? -1 : 1);
    // Most matches rank after the current k-th on level or (unsorted) on kw alone: skip the comparator for them.
    return boundedTop(this.count, k, before, (i, worst) => {
      const li = this.level(i);
      const lk = this.level(worst);
      return li < lk || (li === lk && !cmpSort && this.kw(i) < this.kw(worst));
    });
  }
}

/** What rank() found: the total, the page asked for in rank order, and every matching id when asked (facets). */
interface Ranking {
  total: number;
  page: Candidate[];
  ids: string[] | null;
  marks: MarkTerms;
  embeddingTimeMs: number;
  ratio: number;
}

function sortedRanking(
  ranked: Candidate[],
  req: Pick<SearchDocumentsRequest, "offset" | "limit">,
  wantIds: boolean,
  marks: MarkTerms,
  embeddingTimeMs: number,
  ratio: number,
): Ranking {
  return {
    total: ranked.length,
    page: ranked.slice(req.offset, req.offset + req.limit),
    ids: wantIds ? ranked.map((c) => c.id) : null,
    marks,
    embeddingTimeMs,
    ratio,
  };
}

/**
 * The ranking with exact citation matches first: the pins (score 1), then `head` (the ranking's first offset + limit
 * + pins entries) without them; the total and the ids count every pin once.
 */
function withPins(
  pins: readonly string[],
  head: readonly Candidate[],
  ranking: { total: number; pinsAmong: number; ids: (() => string[]) | null },
  req: Pick<SearchDocumentsRequest, "offset" | "limit">,
): Pick<Ranking, "total" | "page" | "ids"> {
  const pinSet = new Set(pins);
  const ranked = [
    ...pins.map((id): Candidate => ({ id, level: Number.MAX_SAFE_INTEGER, kw: 0, score: 1 })),
    ...head.filter((c) => !pinSet.has(c.id)),
  ];
  const { from, to } = sliceBounds(req.offset, req.offset + req.limit, ranked.length);
  return {
    total: ranking.total - ranking.pinsAmong + pins.length,
    page: ranked.slice(from, to),
    ids: ranking.ids ? [...pins, ...ranking.ids().filter((id) => !pinSet.has(id))] : null,
  };
}

/** Which attributes a hit's `formatted` holds and how (worked out once per request, not per hit). */
interface FormatAttr {
  name: string;
  crop: boolean;
  highlight: boolean;
}

interface FormatPlan {
  attrs: FormatAttr[];
  cropLength: number;
}

/** What project() copies for a request: the displayed attributes asked for, in order, and whether `id` is kept. */
interface Projection {
  keys: readonly string[];
  id: boolean;
}

function projection(attrs: readonly string[] | undefined): Projection {
  // "*" anywhere means every displayed attribute (and id), whatever else is listed.
  if (!attrs || attrs.includes("*")) return { keys: DISPLAYED_ATTRIBUTES, id: true };
  return { keys: attrs.filter((k) => DISPLAYED.has(k)), id: attrs.includes("id") };
}

/**
 * Full projections (every displayed attribute, the default) made once per stored document and frozen: the same object
 * for every hit of that document, so the HTTP layer can keep its JSON (lib/backend/search-json.ts). The map dies
 * with the generation's documents.
 */
const fullProjections = new WeakMap<StoredDoc, HitDocument>();

/** The hit document: the projected attributes that are not null, `id` first when kept. */
function projectWith(doc: StoredDoc, p: Projection): HitDocument {
  const full = p.id && p.keys === DISPLAYED_ATTRIBUTES;
  if (full) {
    const cached = fullProjections.get(doc);
    if (cached) return cached;
  }
  const out = (p.id ? { id: doc.id } : {}) as HitDocument;
  for (const k of p.keys) {
    const v = doc[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  if (full) fullProjections.set(doc, Object.freeze(out));
  return out;
}

function formatValue(s: string, a: FormatAttr, plan: FormatPlan, marks: MarkTerms): string {
  return a.crop ? crop(s, marks, plan.cropLength, a.highlight) : highlight(s, a.highlight ? marks : NO_MARKS);
}

const NO_MARKS: MarkTerms = new Map();

function formatPlan(
  req: Pick<SearchDocumentsRequest, "attributesToHighlight" | "attributesToCrop" | "cropLength">,
): FormatPlan | null {
  const hl = req.attributesToHighlight ?? [];
  const cr = req.attributesToCrop ?? [];
  if (hl.length === 0 && cr.length === 0) return null;
  const all = (xs: readonly string[]) => (xs.includes("*") ? DISPLAYED_ATTRIBUTES : xs);
  const hlSet = new Set(all(hl).filter((a) => DISPLAYED.has(a)));
  const crSet = new Set(all(cr).filter((a) => DISPLAYED.has(a)));
  return {
    attrs: [...new Set([...hlSet, ...crSet])].map((name) => ({
      name,
      crop: crSet.has(name),
      highlight: hlSet.has(name),
    })),
    cropLength: req.cropLength ?? 10,
  };
}

function project(doc: StoredDoc, attrs: readonly string[] | undefined): HitDocument {
  return projectWith(doc, projection(attrs));
}

/** Suggestions sorted by folded text (prefix lookups), with their keys and where the topics are (topic_hits). */
interface SuggestionIndex {
  list: Suggestion[];
  keys: string[];
  /** Positions of the topic suggestions: a few dozen among tens of thousands of phrases. */
  topicRows: number[];
}

function suggestionIndex(suggestions: Suggestion[]): SuggestionIndex {
  const keyed = suggestions.map((s) => ({ s, k: fold(s.text) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const topicRows: number[] = [];
  keyed.forEach((x, i) => {
    if (x.s.kind === "topic") topicRows.push(i);
  });
  return { list: keyed.map((x) => x.s), keys: keyed.map((x) => x.k), topicRows };
}

class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export class LanceDbEngine implements SearchEngine {
  readonly name = "lancedb" as const;
  private store: SearchStore | null = null;
  private state: StoreState | null = null;
  private tables: { docs: lancedb.Table; chunks: lancedb.Table } | null = null;
  private docs = new Map<string, StoredDoc>();
  /** Placeholder order: the order documents were indexed in. */
  private order: string[] = [];
  private main: KeywordSegment | null = null;
  private delta: KeywordSegment | null = null;
  /** Documents (with full_text) indexed by the delta segment. */
  private deltaDocs = new Map<string, IndexDocument>();
  /** Ids whose main-segment postings are stale (deleted or re-indexed in the delta). */
  private mainDead = new Set<string>();
  /** Bumped on every change to `docs` (invalidates segmentDocs). */
  private docsVersion = 0;
  /** Memoised filter predicates by filter (see predicate()); 16 × 12k answers at most. */
  private readonly predicates = new LruCache<string, Predicate>(16);
  private segDocs = new WeakMap<KeywordSegment, { version: number; docs: Array<StoredDoc | undefined> }>();
  /** Vector row of each segment ordinal (-1: no vector), for the hybrid path; rebuilt like segDocs. */
  private segRows = new WeakMap<KeywordSegment, { version: number; rows: Int32Array }>();
  /** What the vector scan reads, derived from `vectors` (see vectorIndex). */
  private vecIndex: VectorIndex | null = null;
  private vecIds: string[] = [];
  private vecRow = new Map<string, number>();
  private vectors: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private suggestIndex: SuggestionIndex = suggestionIndex([]);
  /** Case numbers and neutral citations → ids (citations.ts), kept with `docs`: exact matches rank first. */
  private citations = new CitationIndex();
  private chunkCount = 0;
  private opening: Promise<void> | null = null;
  private reloading: Promise<void> | null = null;
  private checkedAt = 0;
  private readonly mutex = new Mutex();

  constructor(private readonly options: LanceDbEngineOptions) {}

  get embedder(): Embedder {
    return this.options.embedder;
  }

  // ---------------------------------------------------------------- loading

  private async ready(): Promise<void> {
    if (this.opening) {
      await this.opening;
      await this.checkForNewerState();
      return;
    }
    this.opening = this.load().catch((e: unknown) => {
      this.opening = null;
      throw new SearchEngineError("The search index could not be opened", { cause: e });
    });
    return this.opening;
  }

  private async load(): Promise<void> {
    this.store ??= await SearchStore.open(this.options.dir);
    const state = await this.store.readState();
    if (!state) {
      this.resetMemory();
      this.state = null;
      this.tables = null;
      return;
    }
    // Build the new generation aside, then swap in one synchronous step so queries never see half an index.
    const tables = await this.store.openTables(state.gen);
    const fresh = new LanceDbEngine(this.options);
    const snapDir = this.store.snapshotDir(state.gen);
    const snap = await readSnapshot(snapDir, this.embedder.dimensions).catch(() => null);
    if (snap) {
      fresh.main = KeywordSegment.fromParts(snap.segment);
      fresh.adoptSnapshotDocs(snap);
    } else {
      // No snapshot (an index built before snapshots, or another format): rebuild from the documents table,
      // streamed in record batches so the full text of every judgment is never in memory at once.
      const builder = new SegmentBuilder(SEARCHABLE_ATTRIBUTES.length, LONG_FIELD);
      for await (const batch of tables.docs.query().select(["doc", "vector"])) {
        const docCol = batch.getChild("doc");
        const vecCol = batch.getChild("vector");
        for (let i = 0; i < batch.numRows; i++) {
          const doc = JSON.parse(String(docCol?.get(i))) as IndexDocument;
          const v = vecCol?.get(i) as { toArray(): Float32Array } | null;
          builder.add({ id: doc.id, fields: SEARCHABLE_ATTRIBUTES.map((a) => doc[a]) });
          fresh.putDoc(doc, v ? v.toArray() : []);
        }
      }
      fresh.main = builder.build();
      // Best effort: the next process opens from the snapshot (a read-only data dir just rebuilds every time).
      await writeSnapshot(snapDir, fresh.snapshot()).catch(() => undefined);
    }
    for (const entry of await readDelta(this.store.deltaLogPath(state.gen))) fresh.applyDelta(entry);
    fresh.rebuildDelta();
    fresh.suggestIndex = suggestionIndex(await this.store.readSuggestions(state.gen));
    const chunkCount = await tables.chunks.countRows();
    this.adopt(fresh, tables, state, chunkCount);
  }

  /** The serving state as a snapshot (main segment, stored documents, vectors). */
  private snapshot(): Snapshot {
    const dim = this.embedder.dimensions;
    return {
      segment: (this.main as KeywordSegment).parts(),
      docs: this.order.map((id) => this.docs.get(id) as StoredDoc),
      vecIds: this.vecIds,
      vectors: this.vectors.subarray(0, this.vecIds.length * dim),
      dimensions: dim,
    };
  }

  private adoptSnapshotDocs(snap: Snapshot): void {
    for (const d of snap.docs) {
      if (!this.docs.has(d.id)) this.order.push(d.id);
      this.docs.set(d.id, d);
      this.citations.set(d.id, d);
    }
    this.vecIds = snap.vecIds;
    this.vecRow = new Map(snap.vecIds.map((id, i) => [id, i]));
    this.vectors = snap.vectors;
  }

  /** Apply one logged incremental write in memory (the LanceDB tables already hold it). */
  private applyDelta(entry: DeltaEntry): void {
    if (entry.op === "upsert") {
      for (const d of entry.documents) {
        this.putDoc(d.document, d.vector);
        this.mainDead.add(d.document.id);
        this.deltaDocs.set(d.document.id, d.document);
      }
    } else {
      for (const id of entry.ids) {
        this.removeDoc(id);
        this.mainDead.add(id);
        this.deltaDocs.delete(id);
      }
    }
  }

  /** Swap a freshly built generation in, in one synchronous step (queries never see half an index). */
  private adopt(
    fresh: LanceDbEngine,
    tables: { docs: lancedb.Table; chunks: lancedb.Table },
    state: StoreState,
    chunkCount: number,
  ): void {
    this.resetMemory();
    this.docs = fresh.docs;
    this.order = fresh.order;
    this.main = fresh.main;
    this.vecIds = fresh.vecIds;
    this.vecRow = fresh.vecRow;
    this.vectors = fresh.vectors;
    this.delta = fresh.delta;
    this.deltaDocs = fresh.deltaDocs;
    this.mainDead = fresh.mainDead;
    this.suggestIndex = fresh.suggestIndex;
    this.citations = fresh.citations;
    this.chunkCount = chunkCount;
    this.tables = tables;
    this.state = state;
  }

  /**
   * Another process (the sync CLI, the scheduler in the launcher) may have rebuilt or updated the index: at most
   * once a second, compare state.json with what is loaded and reload in the background when it moved on.
   */
  private async checkForNewerState(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < 1000 || this.reloading || !this.store) return;
    this.checkedAt = now;
    const disk = await this.store.readState();
    if (!disk || (this.state && disk.gen === this.state.gen && (disk.rev ?? 0) === (this.state.rev ?? 0))) return;
    this.reloading = this.mutex
      .run(() => this.load())
      .catch(() => undefined)
      .finally(() => {
        this.reloading = null;
      });
  }

  private resetMemory(): void {
    this.docsVersion++;
    this.docs = new Map();
    this.order = [];
    this.main = null;
    this.delta = null;
    this.deltaDocs = new Map();
    this.mainDead = new Set();
    this.vecIds = [];
    this.vecRow = new Map();
    this.vectors = new Float32Array(0);
    this.vecIndex = null;
    this.suggestIndex = suggestionIndex([]);
    this.citations = new CitationIndex();
    this.chunkCount = 0;
  }

  private putDoc(doc: IndexDocument, vector: ArrayLike<number>): void {
    const stored: StoredDoc = { ...doc };
    delete stored.full_text;
    this.docsVersion++;
    if (!this.docs.has(doc.id)) this.order.push(doc.id);
    this.docs.set(doc.id, stored);
    this.citations.set(doc.id, stored);
    const dim = this.embedder.dimensions;
    if (vector.length !== dim) return;
    let row = this.vecRow.get(doc.id);
    if (row === undefined) {
      row = this.vecIds.length;
      this.vecIds.push(doc.id);
      this.vecRow.set(doc.id, row);
      if ((row + 1) * dim > this.vectors.length) {
        // Grow by half: the full build appends every document, and a doubled buffer would idle half of it.
        const grown = new Float32Array(Math.max(1024, Math.ceil((row + 1) * 1.5)) * dim);
        grown.set(this.vectors.subarray(0, row * dim));
        this.vectors = grown;
      }
    }
    this.vectors.set(vector, row * dim);
  }

  private removeDoc(id: string): void {
    if (!this.docs.delete(id)) return;
    this.citations.delete(id);
    this.docsVersion++;
    this.order = this.order.filter((x) => x !== id);
    const row = this.vecRow.get(id);
    if (row !== undefined) {
      // Move the last row into the hole.
      const dim = this.embedder.dimensions;
      const lastRow = this.vecIds.length - 1;
      const lastId = this.vecIds[lastRow];
      if (row !== lastRow) {
        this.vectors.copyWithin(row * dim, lastRow * dim, (lastRow + 1) * dim);
        this.vecIds[row] = lastId;
        this.vecRow.set(lastId, row);
      }
      this.vecIds.pop();
      this.vecRow.delete(id);
    }
  }

  private rebuildDelta(): void {
    if (this.deltaDocs.size === 0) {
      this.delta = null;
      return;
    }
    const b = new SegmentBuilder(SEARCHABLE_ATTRIBUTES.length, LONG_FIELD);
    for (const d of this.deltaDocs.values()) b.add({ id: d.id, fields: SEARCHABLE_ATTRIBUTES.map((a) => d[a]) });
    this.delta = b.build();
  }

  // ---------------------------------------------------------------- keyword core

  /**
   * The filter's predicate, remembering its answer per stored document: a filter is typically repeated (facet
   * selections, every page and keystroke of a search), and evaluating it costs ~1 µs a document (property reads on
   * documents of hundreds of shapes) against ~50 ns for the lookup. Stored documents are replaced, never changed,
   * so an answer can never go stale (the WeakMap lets replaced documents go).
   */
  private predicate(filter: FilterNode | undefined): Predicate | null {
    if (!filter) return null;
    const key = JSON.stringify(filter);
    let p = this.predicates.get(key);
    if (!p) {
      const compiled = compileFilter(filter);
      const memo = new WeakMap<FilterDoc, boolean>();
      p = (doc) => {
        let v = memo.get(doc);
        if (v === undefined) {
          v = compiled(doc);
          memo.set(doc, v);
        }
        return v;
      };
      this.predicates.set(key, p);
    }
    return p;
  }

  /**
   * The stored documents of a segment by ordinal (what a filter is evaluated on), so a query with a filter looks
   * every match up in an array rather than in the id map. Rebuilt after any change to the stored documents.
   */
  private segmentDocs(segment: KeywordSegment): Array<StoredDoc | undefined> {
    const cached = this.segDocs.get(segment);
    if (cached && cached.version === this.docsVersion) return cached.docs;
    const docs = segment.ids.map((id) => this.docs.get(id));
    this.segDocs.set(segment, { version: this.docsVersion, docs });
    return docs;
  }

  /**
   * Keyword candidates: every document matching the query under the matching strategy, with level and raw score,
   * plus the terms to highlight.
   */
  private keywordCandidates(
    q: string,
    pred: Predicate | null,
    strategy: "all" | "last",
    attributesToSearchOn: readonly string[] | undefined,
  ): { matches: KeywordMatches; marks: MarkTerms } {
    const parsed = parseQuery(q);
    const n = parsed.words.length;
    const marks: MarkTerms = new Map();
    const matches = new KeywordMatches(n);
    if (n === 0) return { matches, marks };
    let allowedMask = 0;
    if (attributesToSearchOn && attributesToSearchOn.length > 0) {
      for (const a of attributesToSearchOn) {
        const i = SEARCHABLE_ATTRIBUTES.indexOf(a);
        if (i >= 0) allowedMask |= 1 << i;
      }
      if (allowedMask === 0) return { matches, marks };
    }
    // No id is live in both segments (every delta id is tombstoned in main), so candidates need no merging.
    for (const segment of [this.main, this.delta]) {
      if (!segment || segment.size === 0) continue;
      const expansions = parsed.words.map((w) => {
        const exps = segment.expand(w);
        for (const e of exps) {
          const term = segment.vocab[e.term];
          const markLen = e.kind === "prefix" ? w.text.length : null;
          const prev = marks.get(term);
          if (!marks.has(term) || (prev !== null && markLen === null)) marks.set(term, markLen);
        }
        return exps;
      });
      const dead = segment === this.main && this.mainDead.size > 0 ? this.mainDead : null;
      const docs = pred ? this.segmentDocs(segment) : null;
      const ids = segment.ids;
      const found = segment.match(expansions, parsed.required, strategy === "all" ? n : 1, allowedMask);
      if (dead || docs) {
        // Filter in place (the result is this query's until the next match() on the segment).
        let kept = 0;
        for (let j = 0; j < found.count; j++) {
          const d = found.ords[j];
          if (dead && dead.has(ids[d])) continue;
          if (docs) {
            const doc = docs[d];
            if (!doc || !(pred as Predicate)(doc)) continue;
          }
          found.ords[kept] = d;
          found.levels[kept] = found.levels[j];
          found.kws[kept] = found.kws[j];
          kept++;
        }
        found.count = kept;
      }
      matches.addPart(segment, found);
    }
    return { matches, marks };
  }

  private async queryVector(req: { q: string; vector?: number[] }): Promise<{ vec: Float32Array; ms: number }> {
    const dim = this.embedder.dimensions;
    if (this.state && this.state.embedder.dimensions !== dim) throw new SemanticUnavailableError();
    if (req.vector) {
      if (req.vector.length !== dim) throw new SemanticUnavailableError("Query vector has the wrong dimensions");
      return { vec: Float32Array.from(req.vector), ms: 0 };
    }
    const t0 = performance.now();
    try {
      const v = await this.embedder.embedQuery(req.q);
      return { vec: Float32Array.from(v), ms: performance.now() - t0 };
    } catch (e) {
      throw new SearchEngineError("The query could not be embedded", { cause: e, code: "EMBEDDING_FAILED" });
    }
  }

  /**
   * The column-major vectors, each row's stored document (what a filter is evaluated on) and per-row scratch, rebuilt
   * after any change to the stored documents (a few tens of ms for the full corpus, once per index change).
   */
  private vectorIndex(): VectorIndex {
    const cached = this.vecIndex;
    const rows = this.vecIds.length;
    if (cached && cached.version === this.docsVersion && cached.vectors === this.vectors && cached.columns.rows === rows) {
      return cached;
    }
    const fresh: VectorIndex = {
      version: this.docsVersion,
      vectors: this.vectors,
      columns: vectorColumns(this.vectors, rows, this.embedder.dimensions),
      docs: this.vecIds.map((id) => this.docs.get(id)),
      sims: new Float64Array(rows),
    };
    this.vecIndex = fresh;
    return fresh;
  }

  /** Cosine similarity (vectors are L2-normalised) of the query with every row, into the engine's scratch. */
  private scanVectors(vec: Float32Array): VectorIndex {
    const ix = this.vectorIndex();
    scanSimilarities(ix.columns, vec, ix.sims);
    return ix;
  }

  /** The vector row of each ordinal of a segment (-1 when the document has no vector). */
  private segmentRows(segment: KeywordSegment): Int32Array {
    const cached = this.segRows.get(segment);
    if (cached && cached.version === this.docsVersion) return cached.rows;
    const rows = Int32Array.from(segment.ids, (id) => this.vecRow.get(id) ?? -1);
    this.segRows.set(segment, { version: this.docsVersion, rows });
    return rows;
  }

  /**
   * The hybrid ranking (ratio > 0): every keyword match plus the best max(100, offset + limit) vector matches (ties
   * by vector row), each scored (1 - ratio) * keyword + ratio * max(0, similarity), in score order then id (or the
   * requested sort first, then score, then id: a total order, so the page is exactly the slice a full sort gives).
   * Synchronous: the keyword matches are the segments' scratch and the similarities the engine's.
   */
  private hybridRanking(
    req: SearchDocumentsRequest,
    pred: Predicate | null,
    ratio: number,
    vec: Float32Array,
    matches: KeywordMatches,
    wantIds: boolean,
  ): Pick<Ranking, "total" | "page" | "ids"> {
    const ix = this.scanVectors(vec);
    const { sims, docs: rowDocs } = ix;
    const rows = ix.columns.rows;
    const kwCount = matches.count;
    const kwRows = matches.perOrdinal((segment) => this.segmentRows(segment));
    // Keyword matches passed the filter already (and are candidates anyway).
    const isKeyword = new Uint8Array(rows);
    for (let i = 0; i < kwCount; i++) if (kwRows[i] >= 0) isKeyword[kwRows[i]] = 1;
    // Semantic candidates: the best vector matches among the documents passing the filter, as many as a page asks
    // for (at least 100), ties by row; the filter is asked only about rows near the top.
    const end = Math.max(100, req.offset + req.limit);
    const k = end >= 0 ? Math.trunc(end) : Infinity;
    const semantic = (
      pred
        ? topKAccepted(rows, k, sims, (a, b) => a - b, (r) => {
            if (isKeyword[r] === 1) return true;
            const doc = rowDocs[r];
            return !!doc && pred(doc);
          })
        : topK(rows, k, (a, b) => sims[b] - sims[a] || a - b, sims)
    ).slice(0, end);
    const semRows = semantic.filter((r) => isKeyword[r] === 0);
    // Candidate c: keyword match c below kwCount, then the vector-only rows.
    const n = kwCount + semRows.length;
    const scores = new Float64Array(n);
    for (let i = 0; i < kwCount; i++) {
      const r = kwRows[i];
      scores[i] = (1 - ratio) * matches.score(i) + ratio * Math.max(0, r >= 0 ? sims[r] : 0);
    }
    // A vector-only candidate's keyword score is 0, and (1 - ratio) * 0 adds exactly nothing.
    for (let j = 0; j < semRows.length; j++) scores[kwCount + j] = ratio * Math.max(0, sims[semRows[j]]);
    const ids = this.vecIds;
    const id = (c: number): string => (c < kwCount ? matches.id(c) : ids[semRows[c - kwCount]]);
    let before = (a: number, b: number): number => scores[b] - scores[a] || (id(a) < id(b) ? -1 : 1);
    const sort = req.sort && req.sort.length > 0 ? req.sort : null;
    if (sort) {
      const cmp = docComparator(sort);
      const docs = new Array<StoredDoc>(n);
      for (let c = 0; c < n; c++) {
        const r = c < kwCount ? kwRows[c] : semRows[c - kwCount];
        docs[c] = (r >= 0 ? rowDocs[r] : this.docs.get(id(c))) as StoredDoc;
      }
      const byScore = before;
      before = (a, b) => cmp(docs[a], docs[b]) || byScore(a, b);
    }
    const { from, to } = sliceBounds(req.offset, req.offset + req.limit, n);
    const top = topK(n, to, before, sort ? null : scores);
    return {
      total: n,
      page: top.slice(from).map((c) =>
        c < kwCount
          ? { id: matches.id(c), level: matches.level(c), kw: matches.kw(c), score: scores[c] }
          : { id: id(c), level: 0, kw: 0, score: scores[c] },
      ),
      // Only counted (facets): any order.
      ids: wantIds ? Array.from({ length: n }, (_, c) => id(c)) : null,
    };
  }

  private formatHit(c: Candidate, proj: Projection, plan: FormatPlan | null, marks: MarkTerms): SearchHit {
    const doc = this.docs.get(c.id) as StoredDoc;
    const hit: SearchHit = { document: projectWith(doc, proj), score: Math.max(0, Math.min(1, c.score)) };
    if (plan) {
      const formatted: Record<string, string | string[]> = {};
      for (const a of plan.attrs) {
        const v = doc[a.name];
        if (typeof v === "string") formatted[a.name] = formatValue(v, a, plan, marks);
        else if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
          formatted[a.name] = (v as string[]).map((x) => formatValue(x, a, plan, marks));
        }
      }
      hit.formatted = formatted;
    }
    return hit;
  }

  private facetDistribution(
    ids: Iterable<string>,
    facets: readonly string[],
    max: number,
    facetQuery?: string,
  ): Record<string, Record<string, number>> {
    const counts = facets.map(() => new Map<string, number>());
    const fq = facetQuery ? facetQuery.toLowerCase() : null;
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (!doc) continue;
      facets.forEach((f, i) => {
        const v = doc[f];
        const values = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
        const seen = new Set<string>();
        for (const x of values) {
          const key = typeof x === "object" ? JSON.stringify(x) : String(x);
          if (seen.has(key)) continue;
          seen.add(key);
          if (fq && !key.toLowerCase().includes(fq)) continue;
          counts[i].set(key, (counts[i].get(key) ?? 0) + 1);
        }
      });
    }
    const out: Record<string, Record<string, number>> = {};
    facets.forEach((f, i) => {
      const top = [...counts[i].entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max);
      out[f] = Object.fromEntries(top);
    });
    return out;
  }

  /**
   * Rank every match (shared by searchDocuments and facets): the total, the page [offset, offset + limit) and, with
   * `wantIds`, every matching id. The keyword matches are read before the first await (see KeywordMatches).
   */
  private async rank(req: SearchDocumentsRequest, wantIds: boolean): Promise<Ranking> {
    const pred = this.predicate(req.filter);
    const ratio = Math.max(0, Math.min(1, req.semanticRatio ?? 0));
    const q = req.q.trim();
    let ranked: Candidate[];
    if (q === "") {
      ranked = [];
      for (const id of this.order) {
        const doc = this.docs.get(id) as StoredDoc;
        if (!pred || pred(doc)) ranked.push({ id, level: 0, kw: 0, score: 1 });
      }
      if (req.sort && req.sort.length > 0) ranked.sort(sortComparator(req.sort, this.docs));
      return sortedRanking(ranked, req, wantIds, new Map(), 0, 0);
    }
    if (ratio > 0) {
      // Embed first: everything after this await then runs in one synchronous step on one index state (the keyword
      // matches are the segments' scratch, the similarities the engine's).
      const { vec, ms } = await this.queryVector(req);
      const strategy = req.matchingStrategy ?? "last";
      const { matches, marks } = this.keywordCandidates(q, pred, strategy, req.attributesToSearchOn);
      const pins = this.pinnedIds(q, pred, req.attributesToSearchOn);
      if (pins.length === 0) {
        return { ...this.hybridRanking(req, pred, ratio, vec, matches, wantIds), marks, embeddingTimeMs: ms, ratio };
      }
      // The ranking without the pins: enough of its head to fill the page after them, and every id (the total).
      const rest = this.hybridRanking({ ...req, offset: 0, limit: req.offset + req.limit + pins.length }, pred, ratio, vec, matches, true);
      const all = rest.ids ?? [];
      const pinSet = new Set(pins);
      const among = all.reduce((n, id) => n + (pinSet.has(id) ? 1 : 0), 0);
      const ranking = { total: rest.total, pinsAmong: among, ids: wantIds ? () => all : null };
      return { ...withPins(pins, rest.page, ranking, req), marks, embeddingTimeMs: ms, ratio };
    }
    const { matches, marks } = this.keywordCandidates(
      q,
      pred,
      req.matchingStrategy ?? "last",
      req.attributesToSearchOn,
    );
    const pins = this.pinnedIds(q, pred, req.attributesToSearchOn);
    const sort = req.sort && req.sort.length > 0 ? req.sort : null;
    let sortDocs: ((i: number) => StoredDoc) | null = null;
    if (sort) {
      const docs = matches.ids().map((id) => this.docs.get(id) as StoredDoc);
      sortDocs = (i) => docs[i];
    }
    if (pins.length > 0) {
      const head = matches.top(req.offset + req.limit + pins.length, sortDocs, sort ? docComparator(sort) : null);
      // Counted by segment ordinal: a common citation's words match most of the corpus, and its ids are not needed.
      const ranking = { total: matches.count, pinsAmong: matches.countIds(pins), ids: wantIds ? () => matches.ids() : null };
      const pinned = withPins(pins, head.map((i) => matches.candidate(i)), ranking, req);
      return { ...pinned, marks, embeddingTimeMs: 0, ratio: 0 };
    }
    const top = matches.top(req.offset + req.limit, sortDocs, sort ? docComparator(sort) : null);
    return {
      total: matches.count,
      page: top.slice(req.offset).map((i) => matches.candidate(i)),
      ids: wantIds ? matches.ids() : null,
      marks,
      embeddingTimeMs: 0,
      ratio: 0,
    };
  }

  /**
   * The judgments whose case number or neutral citation equals one typed in the query (citations.ts), passing the
   * filter: ranked before everything else (issue 12 item 6). Not when the request searches only attributes that
   * hold no citation (autocomplete searches case_number, so it pins too).
   */
  private pinnedIds(q: string, pred: Predicate | null, attributesToSearchOn: readonly string[] | undefined): string[] {
    if (this.citations.size === 0) return [];
    if (attributesToSearchOn?.length && !attributesToSearchOn.some((a) => (CITATION_FIELDS as readonly string[]).includes(a))) {
      return [];
    }
    const keys = queryCitationKeys(q);
    if (keys.length === 0) return [];
    // Ordered by id, like the Meilisearch adapter's pins.
    return this.citations
      .lookup(keys)
      .filter((id) => {
        const doc = this.docs.get(id);
        return !!doc && (!pred || pred(doc));
      })
      .sort();
  }

  // ---------------------------------------------------------------- SearchEngine

  async searchDocuments(req: SearchDocumentsRequest): Promise<SearchDocumentsResponse> {
    await this.ready();
    const t0 = performance.now();
    const wantFacets = !!req.facets && req.facets.length > 0;
    const ranking = await this.rank(req, wantFacets);
    const { marks, embeddingTimeMs, ratio } = ranking;
    const plan = formatPlan(req);
    const proj = projection(req.attributesToRetrieve);
    const page = ranking.page.map((c) => this.formatHit(c, proj, plan, marks));
    const res: SearchDocumentsResponse = {
      hits: page,
      estimatedTotal: Math.min(ranking.total, MAX_TOTAL_HITS),
      totalCapped: ranking.total > MAX_TOTAL_HITS,
      processingTimeMs: 0,
      embeddingTimeMs: Math.round(embeddingTimeMs),
      semanticRatio: ratio,
      query: req.q,
    };
    if (req.facets && req.facets.length > 0) {
      res.facetDistribution = this.facetDistribution(ranking.ids ?? [], req.facets, 100);
    }
    res.processingTimeMs = Math.round(performance.now() - t0);
    return res;
  }

  async facets(req: FacetsRequest): Promise<FacetsResponse> {
    await this.ready();
    const t0 = performance.now();
    const ranking = await this.rank({ q: req.q ?? "", filter: req.filter, limit: 0, offset: 0 }, true);
    return {
      facetDistribution: this.facetDistribution(
        ranking.ids ?? [],
        req.facets,
        req.maxValuesPerFacet ?? 100,
        req.facetQuery,
      ),
      total: ranking.total,
      processingTimeMs: Math.round(performance.now() - t0),
    };
  }

  async searchChunks(req: SearchChunksRequest): Promise<SearchChunksResponse> {
    await this.ready();
    const t0 = performance.now();
    if (!this.tables || this.chunkCount === 0) return { hits: [], processingTimeMs: 0, embeddingTimeMs: 0 };
    const { vec, ms } = await this.queryVector({ q: req.query, vector: req.vector });
    const attrs = req.filter ? filterAttributes(req.filter) : new Set<string>();
    const sqlable = [...attrs].every((a) => CHUNK_COLUMNS.has(a));
    const pred = req.filter && !sqlable ? compileFilter(req.filter) : null;
    let query = this.tables.chunks
      .vectorSearch(Array.from(vec))
      .distanceType("cosine")
      .select(["judgment_id", "position", "text"])
      .limit(pred ? req.limit * 10 : req.limit);
    if (req.filter && sqlable) query = query.where(toLanceSql(req.filter, CHUNK_COLUMNS));
    let rows: Array<{ judgment_id: string; position: number; text: string; _distance: number }>;
    try {
      rows = (await query.toArray()) as typeof rows;
    } catch (e) {
      throw new SearchEngineError("Chunk search failed", { cause: e });
    }
    const hits = [];
    for (const r of rows) {
      if (pred) {
        const doc = this.docs.get(r.judgment_id);
        if (!doc || !pred(doc)) continue;
      }
      const similarity = 1 - r._distance;
      if (req.minSimilarity !== undefined && similarity < req.minSimilarity) continue;
      hits.push({ judgmentId: r.judgment_id, position: r.position, text: r.text, similarity });
      if (hits.length >= req.limit) break;
    }
    return { hits, processingTimeMs: Math.round(performance.now() - t0), embeddingTimeMs: Math.round(ms) };
  }

  async similar(req: SimilarRequest): Promise<SimilarResponse> {
    await this.ready();
    const t0 = performance.now();
    const row = this.vecRow.get(req.id);
    if (!this.docs.has(req.id) || row === undefined) throw new DocumentNotFoundError(req.id);
    const dim = this.embedder.dimensions;
    const vec = this.vectors.slice(row * dim, (row + 1) * dim);
    const pred = this.predicate(req.filter);
    const { sims, docs, columns } = this.scanVectors(vec);
    const ids = this.vecIds;
    const end = req.limit;
    const top = topKAccepted(
      columns.rows,
      end >= 0 ? Math.trunc(end) : Infinity,
      sims,
      (a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0),
      (r) => {
        if (r === row) return false;
        const doc = docs[r];
        return !pred || (!!doc && pred(doc));
      },
    ).slice(0, end);
    return {
      hits: top.map((r) => ({
        document: project(docs[r] as StoredDoc, req.attributesToRetrieve),
        score: Math.max(0, Math.min(1, sims[r])),
      })),
      // A lexical embedder makes this a more-like-this over words, not a semantic neighbour search.
      mode: this.embedder.kind === "model" ? "vector" : "more_like_this",
      processingTimeMs: Math.round(performance.now() - t0),
    };
  }

  async autocomplete(req: AutocompleteRequest): Promise<AutocompleteResponse> {
    const d = AUTOCOMPLETE_DEFAULTS;
    const r = await this.searchDocuments({
      q: req.q,
      filter: req.filter,
      limit: req.limit,
      offset: 0,
      attributesToSearchOn: d.attributesToSearchOn,
      attributesToHighlight: d.attributesToHighlight,
      attributesToCrop: d.attributesToCrop,
      cropLength: d.cropLength,
      attributesToRetrieve: d.attributesToRetrieve,
      matchingStrategy: d.matchingStrategy,
    });
    return {
      hits: r.hits,
      estimatedTotal: r.estimatedTotal,
      processingTimeMs: r.processingTimeMs,
      topicHits: this.topicHits(req.q, 5),
      query: req.q,
    };
  }

  private topicHits(q: string, limit: number): TopicHit[] {
    const ws = words(q);
    if (ws.length === 0) return [];
    const key = ws.join(" ");
    const out: TopicHit[] = [];
    const { list, keys, topicRows } = this.suggestIndex;
    for (const i of topicRows) {
      const s = list[i];
      const k = keys[i];
      if (k.startsWith(key) || k.includes(" " + key)) out.push({ topic: s.text, count: s.count ?? Math.round(s.score / 2) });
    }
    return out.sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic)).slice(0, limit);
  }

  async suggest(req: SuggestRequest): Promise<SuggestResponse> {
    await this.ready();
    const t0 = performance.now();
    const key = words(req.q).join(" ");
    if (key === "") return { suggestions: [], processingTimeMs: 0 };
    let lo = 0;
    const { list, keys } = this.suggestIndex;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    const found: Suggestion[] = [];
    for (let i = lo; i < keys.length && keys[i].startsWith(key); i++) {
      found.push(list[i]);
    }
    found.sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
    return { suggestions: found.slice(0, req.limit), processingTimeMs: Math.round(performance.now() - t0) };
  }

  async getDocuments(ids: readonly string[], attributesToRetrieve?: readonly string[]): Promise<HitDocument[]> {
    await this.ready();
    const out: HitDocument[] = [];
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) out.push(project(doc, attributesToRetrieve));
    }
    return out;
  }

  // ---------------------------------------------------------------- sync

  readonly sync: SyncPort = {
    beginFull: (options?: FullSyncOptions) => this.beginFull(options),
    upsert: (batch: IndexBatch) => this.mutex.run(() => this.upsert(batch)),
    delete: (ids: string[]) => this.mutex.run(() => this.deleteIds(ids)),
  };

  private async beginFull(options: FullSyncOptions = {}): Promise<FullSyncSession> {
    await this.ready();
    const store = this.store as SearchStore;
    const gen = Math.max(this.state?.gen ?? 0, Date.now());
    const dim = this.embedder.dimensions;
    const tables = await store.createTables(gen, dim);
    const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
    let done = false;
    // The new generation's in-memory index is built while the batches stream in (text is tokenised once), and
    // swapped in on commit without re-reading the tables.
    const fresh = new LanceDbEngine(this.options);
    const builder = new SegmentBuilder(SEARCHABLE_ATTRIBUTES.length, LONG_FIELD);
    return {
      add: async (batch) => {
        if (done) throw new Error("sync session already finished");
        // LanceDB writes on its own threads: tokenise for the keyword index meanwhile, then wait for both.
        const writes = Promise.all([
          batch.documents.length > 0 ? tables.docs.add(docsTable(batch.documents, dim)) : null,
          batch.chunks.length > 0 ? tables.chunks.add(chunksTable(batch.chunks, dim)) : null,
        ]);
        writes.catch(() => undefined); // awaited below; this only keeps a failure during tokenising from going unhandled
        for (const d of batch.documents) {
          if (fresh.docs.has(d.document.id)) continue;
          builder.add({ id: d.document.id, fields: SEARCHABLE_ATTRIBUTES.map((a) => d.document[a]) });
          fresh.putDoc(d.document, d.vector);
        }
        await writes;
        counts.documents += batch.documents.length;
        counts.chunks += batch.chunks.length;
        options.onProgress?.({ ...counts });
      },
      commit: ({ suggestions }) =>
        this.mutex.run(async () => {
          if (done) throw new Error("sync session already finished");
          done = true;
          const state: StoreState = {
            gen,
            embedder: { id: this.embedder.id, dimensions: dim },
            builtAt: new Date().toISOString(),
          };
          await store.writeSuggestions(gen, suggestions);
          fresh.main = builder.build();
          fresh.suggestIndex = suggestionIndex(suggestions);
          // The snapshot is complete before state.json names the generation: a process opening it never rebuilds.
          await writeSnapshot(store.snapshotDir(gen), fresh.snapshot());
          const chunkCount = await tables.chunks.countRows();
          await store.writeState(state);
          this.adopt(fresh, tables, state, chunkCount);
          await store.dropGenerations(gen);
          return { ...counts };
        }),
      abort: async () => {
        if (done) return;
        done = true;
        await store.dropGeneration(gen);
      },
    };
  }

  private async ensureLive(): Promise<{ docs: lancedb.Table; chunks: lancedb.Table }> {
    await this.ready();
    if (this.tables) return this.tables;
    // First write without a full sync: start an empty generation.
    const session = await this.beginFull();
    await session.commit({ suggestions: [] });
    return this.tables as unknown as { docs: lancedb.Table; chunks: lancedb.Table };
  }

  private async upsert(batch: IndexBatch): Promise<SyncCounts> {
    const tables = await this.ensureLive();
    const ids = batch.documents.map((d) => d.document.id);
    if (ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    const inList = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ");
    await tables.docs
      .mergeInsert("id")
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(docsTable(batch.documents, this.embedder.dimensions));
    await tables.chunks.delete(`judgment_id IN (${inList})`);
    if (batch.chunks.length > 0) await tables.chunks.add(chunksTable(batch.chunks, this.embedder.dimensions));
    const entry: DeltaEntry = { op: "upsert", documents: batch.documents };
    if (this.state && this.store) await appendDelta(this.store.deltaLogPath(this.state.gen), entry);
    this.applyDelta(entry);
    this.rebuildDelta();
    this.chunkCount = await tables.chunks.countRows();
    await this.bumpRevision();
    return { documents: ids.length, chunks: batch.chunks.length, deleted: 0 };
  }

  private async deleteIds(ids: string[]): Promise<SyncCounts> {
    await this.ready();
    if (!this.tables || ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    const inList = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ");
    await this.tables.docs.delete(`id IN (${inList})`);
    await this.tables.chunks.delete(`judgment_id IN (${inList})`);
    let deleted = 0;
    for (const id of ids) if (this.docs.has(id)) deleted++;
    const entry: DeltaEntry = { op: "delete", ids };
    if (this.state && this.store) await appendDelta(this.store.deltaLogPath(this.state.gen), entry);
    this.applyDelta(entry);
    this.rebuildDelta();
    this.chunkCount = await this.tables.chunks.countRows();
    await this.bumpRevision();
    return { documents: 0, chunks: 0, deleted };
  }

  /** Tell other processes serving this index that it changed (they reload; see checkForNewerState). */
  private async bumpRevision(): Promise<void> {
    if (!this.state || !this.store) return;
    this.state = { ...this.state, rev: (this.state.rev ?? 0) + 1 };
    await this.store.writeState(this.state);
  }

  // ---------------------------------------------------------------- settings / health

  async settings(): Promise<IndexSettings> {
    await this.ready();
    const s = indexSettings();
    if (this.state) s.embedders = embedderSettings({ dimensions: this.state.embedder.dimensions });
    return s;
  }

  async health(): Promise<EngineHealth> {
    const embedder = {
      id: this.embedder.id,
      label: this.embedder.label,
      dimensions: this.embedder.dimensions,
      registered: false,
    };
    try {
      await this.ready();
    } catch (e) {
      return {
        engine: "lancedb",
        status: "down",
        documents: 0,
        chunks: 0,
        embedder,
        message: e instanceof Error ? e.message : "unavailable",
      };
    }
    const registered = !!this.state && this.state.embedder.dimensions === this.embedder.dimensions;
    const h: EngineHealth = {
      engine: "lancedb",
      status: !this.state ? "degraded" : registered ? "ok" : "degraded",
      documents: this.docs.size,
      chunks: this.chunkCount,
      embedder: { ...embedder, registered },
    };
    if (!this.state) h.message = "The search index has not been built yet";
    else if (!registered) h.message = "The index was built with a different embedder; run a full sync";
    return h;
  }

  async recoverUnreadable(): Promise<{ reason: string; movedTo: string } | null> {
    let reason: string;
    try {
      await this.ready();
      return null;
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
      reason = cause instanceof Error ? cause.message : String(cause);
    }
    return this.mutex.run(async () => {
      this.store ??= await SearchStore.open(this.options.dir);
      const state = await this.store.readState();
      if (!state) return null;
      const movedTo = await this.store.setAside(state.gen);
      // ready() failed, so nothing is being opened: the next ready() loads the now empty store.
      this.opening = null;
      this.resetMemory();
      this.state = null;
      this.tables = null;
      return { reason: reason.slice(0, 500), movedTo };
    });
  }

  /** Build time and generation of the live index (for health and the benchmark). */
  async indexState(): Promise<StoreState | null> {
    await this.ready();
    return this.state;
  }

  async close(): Promise<void> {
    try {
      await this.opening;
    } catch {
      // closing an engine that failed to open is fine
    }
    this.store?.close();
    this.store = null;
    this.opening = null;
    this.tables = null;
  }
}
