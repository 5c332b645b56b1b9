/**
 * Seeded k-means over document vectors (the core of reasoning-line discovery), with TF-IDF labels
 * per cluster and similarity edges. Iterations are ml-kmeans'; the initial centres are chosen here by k-means++ with
 * the project's seeded generator, so a seed fixes the clustering (ml-kmeans' own seeding would tie us to its PRNG).
 * Vectors are L2-normalised first (by default): for embeddings, squared Euclidean distance between unit vectors is
 * 2 − 2·cosine, so the clusters are cosine clusters.
 */
import { readableLabel } from "./labels";
import { kmeans } from "ml-kmeans";
import { Rng } from "@/lib/analysis/prng";
import type { TfidfMatrix } from "./tfidf";

export interface KMeansOptions {
  k: number;
  seed: number;
  maxIterations?: number;
  tolerance?: number;
  /** L2-normalise the vectors first (default true). */
  normalize?: boolean;
}

export interface Cluster {
  /** 0 = the largest cluster. */
  id: number;
  /** Indices of the input vectors, ascending. */
  members: number[];
  centroid: number[];
  /** Mean cosine similarity of the members to the centroid (1 = all the same direction). */
  cohesion: number;
}

export interface Clustering {
  clusters: Cluster[];
  /** Cluster id of each input vector. */
  assignments: Int32Array;
  iterations: number;
  converged: boolean;
}

function unit(v: readonly number[]): number[] {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  return n > 0 ? v.map((x) => x / n) : [...v];
}

function squaredDistance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return s;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** k-means++ initial centres (Arthur and Vassilvitskii 2007) drawn with a seeded generator. */
export function seededKmeansPlusPlus(data: readonly (readonly number[])[], k: number, seed: number): number[][] {
  const rng = new Rng(`kmeans++:${seed}`);
  const chosen: number[] = [Math.floor(rng.next() * data.length)];
  const d2 = data.map((p) => squaredDistance(p, data[chosen[0]]));
  while (chosen.length < k) {
    const total = d2.reduce((a, b) => a + b, 0);
    let next = -1;
    if (total > 0) {
      let r = rng.next() * total;
      for (let i = 0; i < data.length; i++) {
        r -= d2[i];
        if (r < 0 && d2[i] > 0) {
          next = i;
          break;
        }
      }
      if (next < 0) next = d2.findIndex((d, i) => d > 0 && !chosen.includes(i));
    }
    // Fewer distinct points than k: take the first point not chosen yet (duplicates make empty clusters).
    if (next < 0) next = data.findIndex((_, i) => !chosen.includes(i));
    chosen.push(next);
    for (let i = 0; i < data.length; i++) d2[i] = Math.min(d2[i], squaredDistance(data[i], data[next]));
  }
  return chosen.map((i) => [...data[i]]);
}

/** Cluster vectors into at most k clusters (k is clamped to the number of vectors); empty clusters are dropped. */
export function clusterVectors(vectors: readonly (readonly number[])[], opts: KMeansOptions): Clustering {
  if (vectors.length === 0) return { clusters: [], assignments: new Int32Array(0), iterations: 0, converged: true };
  const data = opts.normalize === false ? vectors.map((v) => [...v]) : vectors.map(unit);
  const k = Math.max(1, Math.min(opts.k, data.length));
  const result = kmeans(data, k, {
    initialization: seededKmeansPlusPlus(data, k, opts.seed),
    maxIterations: opts.maxIterations ?? 100,
    tolerance: opts.tolerance ?? 1e-6,
  });
  const groups = Array.from({ length: k }, (_, c) => ({ c, members: [] as number[] }));
  result.clusters.forEach((c, i) => groups[c].members.push(i));
  // Largest first; ties by the first member (both independent of the library's cluster numbering).
  const ordered = groups.filter((g) => g.members.length > 0).sort((a, b) => b.members.length - a.members.length || a.members[0] - b.members[0]);
  const assignments = new Int32Array(data.length);
  const clusters = ordered.map((g, id): Cluster => {
    const dim = data[0].length;
    const centroid = new Array<number>(dim).fill(0);
    for (const i of g.members) for (let d = 0; d < dim; d++) centroid[d] += data[i][d] / g.members.length;
    let cohesion = 0;
    for (const i of g.members) {
      assignments[i] = id;
      cohesion += cosine(data[i], centroid) / g.members.length;
    }
    return { id, members: g.members, centroid, cohesion };
  });
  return { clusters, assignments, iterations: result.iterations, converged: result.converged };
}

export interface ClusterLabel {
  label: string;
  terms: { term: string; weight: number }[];
}

/**
 * TF-IDF labels: for each cluster, the terms whose mean TF-IDF weight in the cluster most exceeds their mean over
 * all documents (distinctive, not merely frequent), ties by term. `tfidf.rows` are the clustered documents, in the
 * same order as the vectors.
 */
export function clusterLabels(
  clustering: Clustering,
  tfidf: TfidfMatrix,
  numTerms = 5,
  /** How to show a folded term (e.g. its most common written form: see preferredSurface in ./text.ts). */
  display: (term: string) => string = (t) => t,
): ClusterLabel[] {
  const m = tfidf.terms.length;
  const n = tfidf.rows.length;
  const overall = new Float64Array(m);
  for (const r of tfidf.rows) for (let p = 0; p < r.indices.length; p++) overall[r.indices[p]] += r.values[p] / n;
  return clustering.clusters.map((c) => {
    const mean = new Float64Array(m);
    for (const i of c.members) {
      const r = tfidf.rows[i];
      for (let p = 0; p < r.indices.length; p++) mean[r.indices[p]] += r.values[p] / c.members.length;
    }
    const best = Array.from({ length: m }, (_, j) => j)
      .filter((j) => mean[j] > overall[j])
      .sort((a, b) => mean[b] - overall[b] - (mean[a] - overall[a]) || (tfidf.terms[a] < tfidf.terms[b] ? -1 : 1))
      .slice(0, numTerms);
    const terms = best.map((j) => ({ term: display(tfidf.terms[j]), weight: Math.round((mean[j] - overall[j]) * 1e6) / 1e6 }));
    return { label: readableLabel(terms.map((t) => t.term)), terms };
  });
}

export interface SimilarityEdge {
  source: number;
  target: number;
  similarity: number;
}

/** Pairs (source < target) among `indices` whose cosine similarity is at least `threshold`, strongest first. */
export function similarityEdges(
  vectors: readonly (readonly number[])[],
  threshold: number,
  indices: readonly number[] = vectors.map((_, i) => i),
): SimilarityEdge[] {
  const out: SimilarityEdge[] = [];
  for (let a = 0; a < indices.length; a++) {
    for (let b = a + 1; b < indices.length; b++) {
      const [s, t] = indices[a] < indices[b] ? [indices[a], indices[b]] : [indices[b], indices[a]];
      const similarity = cosine(vectors[s], vectors[t]);
      if (similarity >= threshold) out.push({ source: s, target: t, similarity: Math.round(similarity * 1e6) / 1e6 });
    }
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.source - y.source || x.target - y.target);
}
