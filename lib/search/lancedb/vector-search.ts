/**
 * Vector search over one generation's in-memory vectors (vector-scan.ts): the hybrid ranking of a search and the
 * neighbours of a stored document (`similar`), with filters applied exactly as on the keyword path.
 */
import type { Predicate } from "../filter";
import type { SearchDocumentsRequest } from "../types";
import type { KeywordMatches } from "./keyword-matches";
import type { LiveIndex, StoredDoc } from "./live-index";
import type { Ranking } from "./ranking";
import { docComparator } from "./sort";
import { sliceBounds, topK, topKAccepted } from "./top-k";
import type { VectorIndex } from "./vector-scan";

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
  // Past the threshold, the approximate index (ann.ts): the probed lists' rows are the semantic candidates and
  // every keyword match gets its exact similarity; else (or when a filter leaves fewer than k probed rows) the scan.
  const probe = live.probeVectors(vec, kwRows, kwCount);
  const ix = probe ? probe.ix : live.scanVectors(vec);
  const { sims, docs: rowDocs } = ix;
  const rows = ix.columns.rows;
  // Keyword matches passed the filter already (and are candidates anyway).
  const isKeyword = new Uint8Array(rows);
  for (let i = 0; i < kwCount; i++) if (kwRows[i] >= 0) isKeyword[kwRows[i]] = 1;
  const accept = (r: number): boolean => {
    if (isKeyword[r] === 1) return true;
    const doc = rowDocs[r];
    return !!doc && !!pred && pred(doc);
  };
  // Semantic candidates: the best vector matches among the documents passing the filter, as many as a page asks
  // for (at least 100), ties by row; the filter is asked only about rows near the top.
  let semantic: number[] | null = null;
  if (probe) {
    const { cand, candSims } = probe.ivf;
    const picked = pred
      ? topKAccepted(probe.n, k, candSims, (a, b) => cand[a] - cand[b], (i) => accept(cand[i]))
      : topK(probe.n, k, (a, b) => candSims[b] - candSims[a] || cand[a] - cand[b], candSims);
    // Fewer than a page's worth pass the filter among the probed rows: the exact scan finds the rest.
    if (picked.length >= Math.min(k, rows)) semantic = picked.slice(0, end).map((i) => cand[i]);
    else live.scanVectors(vec);
  }
  semantic ??= (
    pred
      ? topKAccepted(rows, k, sims, (a, b) => a - b, accept)
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
  const ids = live.vecIds;
  const id = (c: number): string => (c < kwCount ? matches.id(c) : ids[semRows[c - kwCount]]);
  let before = (a: number, b: number): number => scores[b] - scores[a] || (id(a) < id(b) ? -1 : 1);
  const sort = req.sort && req.sort.length > 0 ? req.sort : null;
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
