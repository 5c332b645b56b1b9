/**
 * Vector search over one generation's in-memory vectors (vector-scan.ts): the hybrid ranking of a search and the
 * neighbours of a stored document (`similar`), with filters applied exactly as on the keyword path.
 */
import type { Predicate } from "../filter";
import { annSettings } from "./ann";
import { passes, verdictsFor } from "./predicates";
import type { SearchDocumentsRequest } from "../types";
import type { KeywordMatches } from "./keyword-matches";
import type { LiveIndex, StoredDoc } from "./live-index";
import type { Ranking } from "./ranking";
import { docComparator } from "./sort";
import { sliceBounds, topK, topKAccepted } from "./top-k";
import type { IvfLayout, VectorIndex } from "./vector-scan";

/** The L2 norm of a vector (in double precision). */
function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/**
 * The keyword matches (rows `kwRows[0..kwCount)`, -1: no vector) whose similarity the page needs, after a probe that
 * left most of them unknown. A match's hybrid score is at most `kwPart(i) + ratio * simBound`; the known scores
 * (probed matches, and the `semCount` vector-only candidates already in `scores[semFrom..]`) give the k-th best score
 * so far, and a match whose bound is below it cannot reach the first k whatever its similarity. Those get their bound
 * as score in `scores[i]` (never shown: the page's scores are all exact); the others are returned to be computed.
 * With k = Infinity (a sort ranks first) every unknown match is needed.
 */
function keywordRowsToScore(
  probe: { ix: VectorIndex; ivf: IvfLayout },
  kwRows: Int32Array,
  kwCount: number,
  kwPart: (i: number) => number,
  scores: Float64Array,
  semFrom: number,
  semCount: number,
  o: { ratio: number; simBound: number; k: number },
): { rows: Int32Array; count: number } {
  const { stamp, tick } = probe.ivf;
  const { sims } = probe.ix;
  // The k-th best known score: a bounded min-heap of the best k known scores.
  let theta = -Infinity;
  if (Number.isFinite(o.k) && o.k > 0) {
    const k = o.k;
    const heap = new Float64Array(k);
    let size = 0;
    const push = (x: number): void => {
      if (size < k) {
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (heap[p] <= x) break;
          heap[c] = heap[p];
          c = p;
        }
        heap[c] = x;
        return;
      }
      if (x <= heap[0]) return;
      let c = 0;
      for (;;) {
        let w = 2 * c + 1;
        if (w >= k) break;
        if (w + 1 < k && heap[w + 1] < heap[w]) w++;
        if (heap[w] >= x) break;
        heap[c] = heap[w];
        c = w;
      }
      heap[c] = x;
    };
    for (let j = 0; j < semCount; j++) push(scores[semFrom + j]);
    for (let i = 0; i < kwCount; i++) {
      const r = kwRows[i];
      if (r < 0) push(kwPart(i));
      else if (stamp[r] === tick) push(kwPart(i) + o.ratio * Math.max(0, sims[r]));
    }
    if (size === k) theta = heap[0];
  }
  const out = new Int32Array(kwCount);
  let count = 0;
  const lift = o.ratio * Math.max(0, o.simBound);
  for (let i = 0; i < kwCount; i++) {
    const r = kwRows[i];
    if (r < 0 || stamp[r] === tick) continue;
    const bound = kwPart(i) + lift;
    if (bound < theta) scores[i] = bound;
    else out[count++] = r;
  }
  return { rows: out, count };
}


/**
 * The hybrid ranking (ratio > 0): every keyword match plus the best max(100, offset + limit) vector matches (ties
 * by vector row), each scored (1 - ratio) * keyword + ratio * max(0, similarity), in score order then id (or the
 * requested sort first, then score, then id: a total order, so the page is exactly the slice a full sort gives).
 * Synchronous: the keyword matches are the segments' scratch and the similarities the generation's.
 */
export function hybridRanking(
  live: LiveIndex,
  req: SearchDocumentsRequest,
  pred: Predicate | null,
  ratio: number,
  vec: Float32Array,
  matches: KeywordMatches,
  wantIds: boolean,
): Pick<Ranking, "total" | "page" | "ids"> {
  const kwCount = matches.count;
  const kwRows = matches.perOrdinal((segment) => live.segmentRows(segment));
  const end = Math.max(100, req.offset + req.limit);
  const k = end >= 0 ? Math.trunc(end) : Infinity;
  // Past the threshold, the approximate index (ann.ts): the probed lists' rows are the semantic candidates, and a
  // keyword match outside them gets its exact similarity only if it could still reach the page (below). The rest of
  // the lists are scanned too (the exact answer, at the cost of one exact scan) when a filter leaves fewer than k
  // probed rows or most keyword matches need their similarity anyway.
  const probe = live.probeVectors(vec);
  const ix = probe ? probe.ix : live.scanVectors(vec);
  /** Every row's similarity is in `sims`. */
  let scanned = !probe;
  const scanRest = (): void => {
    if (probe && !scanned) live.completeScan(probe, vec);
    scanned = true;
  };
  const { sims, docs: rowDocs } = ix;
  const rows = ix.columns.rows;
  // Keyword matches passed the filter already (and are candidates anyway).
  const isKeyword = new Uint8Array(rows);
  for (let i = 0; i < kwCount; i++) if (kwRows[i] >= 0) isKeyword[kwRows[i]] = 1;
  const answers = pred ? verdictsFor(pred, rowDocs) : null;
  const accept = (r: number): boolean => {
    if (isKeyword[r] === 1) return true;
    return !!pred && passes(answers as Uint8Array, pred, rowDocs, r);
  };
  // Semantic candidates: the best vector matches among the documents passing the filter, as many as a page asks
  // for (at least 100), ties by row; the filter is asked only about rows near the top. Among the probed rows while
  // only those are scanned (null when fewer than k of them pass the filter).
  const semanticRows = (): number[] | null => {
    if (probe && !scanned) {
      const { cand, candSims } = probe.ivf;
      const picked = pred
        ? topKAccepted(probe.n, k, candSims, (a, b) => cand[a] - cand[b], (i) => accept(cand[i]))
        : topK(probe.n, k, (a, b) => candSims[b] - candSims[a] || cand[a] - cand[b], candSims);
      return picked.length >= Math.min(k, rows) ? picked.slice(0, end).map((i) => cand[i]) : null;
    }
    return (
      pred
        ? topKAccepted(rows, k, sims, (a, b) => a - b, accept)
        : topK(rows, k, (a, b) => sims[b] - sims[a] || a - b, sims)
    ).slice(0, end);
  };
  let semantic = semanticRows();
  if (!semantic) {
    scanRest();
    semantic = semanticRows() as number[];
  }
  const sort = req.sort && req.sort.length > 0 ? req.sort : null;
  // Candidate c: keyword match c below kwCount, then the vector-only rows.
  let semRows = semantic.filter((r) => isKeyword[r] === 0);
  let n = kwCount + semRows.length;
  let scores = new Float64Array(n);
  // A vector-only candidate's keyword score is 0, and (1 - ratio) * 0 adds exactly nothing.
  const scoreSemantic = (): void => {
    for (let j = 0; j < semRows.length; j++) scores[kwCount + j] = ratio * Math.max(0, sims[semRows[j]]);
  };
  scoreSemantic();
  if (probe && !scanned) {
    const need = keywordRowsToScore(probe, kwRows, kwCount, (i) => (1 - ratio) * matches.score(i), scores, kwCount, semRows.length, {
      ratio,
      // |q . x| <= |q| |x|; the factor covers the rounding of a double sum of float products.
      simBound: norm(vec) * ix.maxNorm * (1 + 1e-6),
      k: sort || annSettings().everyKeywordSimilarity ? Infinity : sliceBounds(req.offset, req.offset + req.limit, n).to,
    });
    if (need.count * 4 > rows) {
      // Reading a quarter of the rows one by one costs more than scanning the lists not probed yet; and with every
      // similarity known, the semantic candidates are the exact ones.
      scanRest();
      semRows = (semanticRows() as number[]).filter((r) => isKeyword[r] === 0);
      n = kwCount + semRows.length;
      scores = new Float64Array(n);
      scoreSemantic();
    } else live.fillSimilarities(probe, vec, need.rows, need.count);
  }
  const { from, to } = sliceBounds(req.offset, req.offset + req.limit, n);
  for (let i = 0; i < kwCount; i++) {
    const r = kwRows[i];
    // Not probed and not needed: its upper bound (set above) already ranks it after the page.
    if (!scanned && probe && r >= 0 && probe.ivf.stamp[r] !== probe.ivf.tick) continue;
    scores[i] = (1 - ratio) * matches.score(i) + ratio * Math.max(0, r >= 0 ? sims[r] : 0);
  }
  const ids = live.vecIds;
  const id = (c: number): string => (c < kwCount ? matches.id(c) : ids[semRows[c - kwCount]]);
  let before = (a: number, b: number): number => scores[b] - scores[a] || (id(a) < id(b) ? -1 : 1);
  if (sort) {
    const cmp = docComparator(sort);
    const docs = new Array<StoredDoc>(n);
    for (let c = 0; c < n; c++) {
      const r = c < kwCount ? kwRows[c] : semRows[c - kwCount];
      docs[c] = (r >= 0 ? rowDocs[r] : live.docs.get(id(c))) as StoredDoc;
    }
    const byScore = before;
    before = (a, b) => cmp(docs[a], docs[b]) || byScore(a, b);
  }
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

/**
 * The rows most similar to row `row` (itself excluded) passing the filter, best first (ties by id), at most `limit`;
 * `sims` of the returned scan state holds their similarities.
 */
export function similarRows(
  live: LiveIndex,
  row: number,
  limit: number,
  pred: Predicate | null,
): { rows: number[]; scan: VectorIndex } {
  const dim = live.dimensions;
  const vec = live.vectors.slice(row * dim, (row + 1) * dim);
  const scan = live.scanVectors(vec);
  const { sims, docs, columns } = scan;
  const ids = live.vecIds;
  const end = limit;
  const rows = topKAccepted(
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
  return { rows, scan };
}
