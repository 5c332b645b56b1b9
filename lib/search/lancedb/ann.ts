/**
 * The approximate document-vector index (P-51): an inverted-file (IVF-Flat) partition of the
 * in-memory vectors. Spherical k-means (vectors are L2-normalised, so the nearest centroid is the one with the largest
 * dot product) splits the rows into `nlist` lists; a query reads only the rows of the `nprobe` lists whose centroids
 * are most similar to it, with the same exact similarities as the full scan (no quantisation), so a probed row's
 * similarity is bit-identical to the exact scan's and only rows in lists that were not probed can be missed.
 *
 * Why in memory and not LanceDB's IVF_PQ/HNSW index on the docs table: hybrid search applies filters with the
 * keyword path's semantics (evaluate.ts over the stored documents, which the docs table does not have as columns)
 * and needs the similarity of every keyword match, and a native round trip per query costs more than the whole
 * probe at this size (docs/search.md "Document vectors"; measured figures in docs/bench.md).
 */
import { config } from "@/lib/config";
import { scanRange, usedComponents, vectorColumns } from "./vector-scan";

export interface AnnSettings {
  /** Below this many vectors the exact scan is used (it is as fast, and exact). */
  minRows: number;
  /** Share of the lists probed per query, in percent (at least one list). */
  probePercent: number;
  /** A fixed number of lists to probe instead (bench and tests). */
  nprobe?: number;
  /**
   * Tests: give every keyword match its exact similarity, instead of only those whose bound can still reach the page
   * (vector-search.ts), to check that the bound changes no answer.
   */
  everyKeywordSimilarity?: boolean;
}

let override: Partial<AnnSettings> | null = null;

/** The settings from the environment (lib/config.ts), or the bench's override. */
export function annSettings(): AnnSettings {
  const c = config();
  return {
    minRows: override?.minRows ?? c.SEARCH_ANN_MIN_DOCUMENTS,
    probePercent: override?.probePercent ?? c.SEARCH_ANN_PROBE_PERCENT,
    nprobe: override?.nprobe,
    everyKeywordSimilarity: override?.everyKeywordSimilarity,
  };
}

/**
 * Lists of the demo corpus (listCount(12,307)): up to this many lists a query probes `probePercent` of them; beyond,
 * the probes grow like √nlist (as many as probePercent of a partition of √(nlist × REFERENCE_LISTS) lists), so the
 * rows a query reads grow like N^¾ rather than N. Measured at 10x the demo corpus (351 lists): 50 probes give recall@10
 * against the exact scan of 0.98 hybrid / 0.965 semantic-only (88 probes: 0.995 / 0.9875; 36: 0.945 / 0.92), see
 * docs/bench.md "search at scale".
 */
export const REFERENCE_LISTS = 111;

/** Lists a query probes out of `nlist` (see REFERENCE_LISTS). */
export function probeCount(s: AnnSettings, nlist: number): number {
  const share = s.probePercent / 100;
  const lists = nlist <= REFERENCE_LISTS ? nlist * share : share * Math.sqrt(nlist * REFERENCE_LISTS);
  return Math.max(1, Math.min(nlist, s.nprobe ?? Math.ceil(lists)));
}

/** For bench/search and tests: force the exact scan (minRows Infinity) or another probe count; null restores. */
export function setAnnSettings(s: Partial<AnnSettings> | null): void {
  override = s;
}

/** The trained partition: `nlist` unit-length centroids, row-major. */
export interface IvfModel {
  nlist: number;
  dim: number;
  centroids: Float32Array;
}

/** About √rows lists (the usual IVF choice), at least 16 and at most 1024. */
export function listCount(rows: number): number {
  return Math.max(16, Math.min(1024, Math.round(Math.sqrt(rows))));
}

/** A small deterministic PRNG (mulberry32): the same corpus gives the same partition in every process. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The list of each of the given rows: the centroid with the largest dot product (ties to the lower list). Skips the
 * zero components of a row (the lexical embedder's vectors have some). The centroids are scanned as the column store
 * of vector-scan.ts (its SIMD kernel, or the JavaScript loop where there is none): the products summed per centroid in
 * ascending component order in double precision either way. Assigning every row is most of a full build's commit at
 * 10x the demo corpus (52 s with a plain JavaScript loop over 123,070 rows × 351 lists, 4.4 s so).
 */
export function assignRows(m: IvfModel, vectors: Float32Array<ArrayBufferLike>, rows: ArrayLike<number>, out: Int32Array): void {
  const { nlist, dim } = m;
  const centroids = vectorColumns(m.centroids, nlist, dim);
  const sums = centroids.kernel ? centroids.kernel.sums : new Float64Array(nlist);
  const used = new Int32Array(dim);
  const q = new Float32Array(dim);
  for (let i = 0; i < rows.length; i++) {
    const base = rows[i] * dim;
    let k = 0;
    for (let d = 0; d < dim; d++) {
      const x = vectors[base + d];
      q[d] = x;
      if (x !== 0) used[k++] = d;
    }
    scanRange(centroids, q, used, k, sums, 0, nlist);
    let best = 0;
    for (let c = 1; c < nlist; c++) if (sums[c] > sums[best]) best = c;
    out[i] = best;
  }
}

/**
 * Spherical k-means over a deterministic sample of at most 32 rows per list (6 rounds, farthest-first seeds; an
 * emptied list is reseeded from a random sample row). The centroids are normalised means.
 */
export function trainIvf(vectors: Float32Array<ArrayBufferLike>, rows: number, dim: number, nlist = listCount(rows)): IvfModel {
  const rand = prng(0x5eed ^ rows);
  const sampleSize = Math.min(rows, nlist * 32);
  // A strided sample from a random start: spread over the whole corpus (rows are in id order).
  const sample = new Int32Array(sampleSize);
  const stride = rows / sampleSize;
  const start = rand() * stride;
  for (let i = 0; i < sampleSize; i++) sample[i] = Math.min(rows - 1, Math.floor(start + i * stride));
  const centroids = new Float32Array(nlist * dim);
  const seedFrom = (c: number): void => {
    const r = sample[Math.floor(rand() * sampleSize)];
    centroids.set(vectors.subarray(r * dim, (r + 1) * dim), c * dim);
  };
  // Farthest-first seeds (a deterministic k-means++): a random sample row, then each time the sample row least
  // similar to every seed so far, so no two seeds start in one cluster. One scan of the sample's columns per seed
  // (vector-scan.ts: the SIMD kernel where there is one; the same sums as a row-by-row dot product).
  const bestSim = new Float64Array(sampleSize).fill(-Infinity);
  const sampled = vectorColumns(vectors, sampleSize, dim, sample);
  const sims = sampled.kernel ? sampled.kernel.sums : new Float64Array(sampleSize);
  const used = new Int32Array(dim);
  let pick = sample[Math.floor(rand() * sampleSize)];
  for (let c = 0; c < nlist; c++) {
    centroids.set(vectors.subarray(pick * dim, (pick + 1) * dim), c * dim);
    const seed = centroids.subarray(c * dim, (c + 1) * dim);
    scanRange(sampled, seed, used, usedComponents(sampled, seed, used), sims, 0, sampleSize);
    let worst = -1;
    let worstSim = Infinity;
    for (let i = 0; i < sampleSize; i++) {
      const dot = sims[i];
      if (dot > bestSim[i]) bestSim[i] = dot;
      if (bestSim[i] < worstSim) {
        worstSim = bestSim[i];
        worst = sample[i];
      }
    }
    pick = worst;
  }
  const model: IvfModel = { nlist, dim, centroids };
  const assign = new Int32Array(sampleSize);
  const sums = new Float64Array(nlist * dim);
  const counts = new Int32Array(nlist);
  for (let round = 0; round < 6; round++) {
    assignRows(model, vectors, sample, assign);
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < sampleSize; i++) {
      const c = assign[i];
      counts[c]++;
      const rb = sample[i] * dim;
      const cb = c * dim;
      for (let d = 0; d < dim; d++) sums[cb + d] += vectors[rb + d];
    }
    for (let c = 0; c < nlist; c++) {
      if (counts[c] === 0) {
        seedFrom(c);
        continue;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += sums[c * dim + d] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dim; d++) centroids[c * dim + d] = sums[c * dim + d] / norm;
    }
  }
  return model;
}

/**
 * The `nprobe` lists whose centroids have the largest dot product with `q`, reading only the query's non-zero
 * components (`used`, `m` of them).
 */
export function probeLists(m: IvfModel, q: Float32Array, used: Int32Array, count: number, nprobe: number): Int32Array {
  const { nlist, dim, centroids } = m;
  const score = new Float64Array(nlist);
  for (let c = 0; c < nlist; c++) {
    const cb = c * dim;
    let s = 0;
    for (let j = 0; j < count; j++) s += centroids[cb + used[j]] * q[used[j]];
    score[c] = s;
  }
  const k = Math.min(nprobe, nlist);
  const idx = Int32Array.from({ length: nlist }, (_, i) => i);
  idx.sort((a, b) => score[b] - score[a] || a - b);
  return idx.slice(0, k);
}
