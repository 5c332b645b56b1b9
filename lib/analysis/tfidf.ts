/**
 * Sparse TF-IDF over token lists (one list per document). Weighting: sublinear term frequency 1 + ln(tf), smoothed
 * idf ln((1 + n) / (1 + df)) + 1, each row L2-normalised (the usual choice for NMF topic models and cosine
 * similarity). Vocabulary: terms in at least `minDf` documents and at most `maxDfRatio` of them; when more than
 * `maxFeatures` remain, the most frequent (by document frequency, ties by term) are kept. Terms are ordered by code
 * point, so the matrix never depends on the order documents or terms were met in.
 */

/** One sparse row: column indices ascending, with their values. */
export interface SparseRow {
  indices: Int32Array;
  values: Float64Array;
}

export interface TfidfMatrix {
  /** Column terms, code-point order. */
  terms: string[];
  /** One row per document, in input order (empty when none of its terms survived). */
  rows: SparseRow[];
  /** Document frequency of each column term. */
  df: Int32Array;
  idf: Float64Array;
}

export interface TfidfOptions {
  /** Minimum document count of a term (default 2, or 1 below 20 documents). */
  minDf?: number;
  /** Maximum share of documents a term may appear in (default 0.5). */
  maxDfRatio?: number;
  /** Vocabulary cap (default 5,000). */
  maxFeatures?: number;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildTfidf(docs: readonly (readonly string[])[], opts: TfidfOptions = {}): TfidfMatrix {
  const n = docs.length;
  const minDf = opts.minDf ?? (n >= 20 ? 2 : 1);
  const maxDf = Math.floor((opts.maxDfRatio ?? 0.5) * n);
  const maxFeatures = opts.maxFeatures ?? 5000;

  const counts: Map<string, number>[] = docs.map((tokens) => {
    const m = new Map<string, number>();
    for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const dfAll = new Map<string, number>();
  for (const m of counts) for (const t of m.keys()) dfAll.set(t, (dfAll.get(t) ?? 0) + 1);

  let kept = [...dfAll].filter(([, d]) => d >= minDf && d <= Math.max(maxDf, 1));
  if (kept.length > maxFeatures) {
    kept.sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0]));
    kept = kept.slice(0, maxFeatures);
  }
  const terms = kept.map(([t]) => t).sort(byCodePoint);
  const column = new Map(terms.map((t, i) => [t, i]));
  const df = Int32Array.from(terms, (t) => dfAll.get(t) ?? 0);
  const idf = Float64Array.from(df, (d) => Math.log((1 + n) / (1 + d)) + 1);

  const rows = counts.map((m): SparseRow => {
    const cells: [number, number][] = [];
    for (const [t, c] of m) {
      const j = column.get(t);
      if (j !== undefined) cells.push([j, (1 + Math.log(c)) * idf[j]]);
    }
    cells.sort((a, b) => a[0] - b[0]);
    let norm = 0;
    for (const [, v] of cells) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    return { indices: Int32Array.from(cells, (c) => c[0]), values: Float64Array.from(cells, (c) => c[1] / norm) };
  });
  return { terms, rows, df, idf };
}

/** Cosine similarity of two L2-normalised sparse rows (their dot product). */
export function sparseDot(a: SparseRow, b: SparseRow): number {
  let i = 0;
  let j = 0;
  let s = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const x = a.indices[i];
    const y = b.indices[j];
    if (x === y) s += a.values[i++] * b.values[j++];
    else if (x < y) i++;
    else j++;
  }
  return s;
}
