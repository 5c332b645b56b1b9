/**
 * Non-negative matrix factorisation V ≈ W·H (V documents × terms, W documents × rank, H rank × terms) by Lee and
 * Seung's multiplicative updates for the Frobenius loss, which keep every entry non-negative and never increase the
 * error. V stays sparse (CSR): one iteration costs O(nnz·rank + (docs + terms)·rank²), so the 2,000-document runs
 * never build a dense documents × terms matrix. W and H are flat row-major Float64Arrays in the loop;
 * `asMatrices` hands them out as ml-matrix matrices for callers that want linear algebra on them.
 *
 * Initialisation is seeded (sklearn's "random" scheme: |N(0, 1)| · sqrt(mean(V) / rank)), drawn from the project's
 * seeded generator (lib/analysis/prng.ts), so a seed fixes the result. Stop: relative change of the reconstruction
 * error below `tolerance` (1e-4) or `maxIterations` (300).
 */
import { Matrix } from "ml-matrix";
import { Rng } from "@/lib/analysis/prng";
import type { SparseRow } from "./tfidf";

export interface CsrMatrix {
  rows: number;
  cols: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

export interface NmfFactors {
  /** rows × rank, row-major. */
  W: Float64Array;
  /** rank × cols, row-major. */
  H: Float64Array;
  rank: number;
}

export interface NmfOptions {
  rank: number;
  seed: number;
  maxIterations?: number;
  tolerance?: number;
}

export interface NmfResult extends NmfFactors {
  iterations: number;
  /** ‖V − WH‖_F at the end. */
  error: number;
  converged: boolean;
}

/** Added to denominators so a zero row or column never divides by zero (small enough not to move the fixed point). */
const EPS = 1e-12;

export function csrFromRows(rows: readonly SparseRow[], cols: number): CsrMatrix {
  const rowPtr = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) rowPtr[i + 1] = rowPtr[i] + rows[i].indices.length;
  const colIdx = new Int32Array(rowPtr[rows.length]);
  const values = new Float64Array(rowPtr[rows.length]);
  for (let i = 0; i < rows.length; i++) {
    colIdx.set(rows[i].indices, rowPtr[i]);
    values.set(rows[i].values, rowPtr[i]);
  }
  return { rows: rows.length, cols, rowPtr, colIdx, values };
}

/** CSR form of a dense matrix (zeros dropped); for tests and small inputs. */
export function csrFromDense(dense: readonly (readonly number[])[]): CsrMatrix {
  const cols = dense[0]?.length ?? 0;
  return csrFromRows(
    dense.map((r) => {
      const idx: number[] = [];
      const val: number[] = [];
      r.forEach((v, j) => {
        if (v !== 0) {
          idx.push(j);
          val.push(v);
        }
      });
      return { indices: Int32Array.from(idx), values: Float64Array.from(val) };
    }),
    cols,
  );
}

/** Seeded random initial factors. */
export function initFactors(V: CsrMatrix, rank: number, seed: number): NmfFactors {
  const rng = new Rng(`nmf:${seed}`);
  let sum = 0;
  for (const v of V.values) sum += v;
  const cells = V.rows * V.cols;
  const scale = Math.sqrt((cells > 0 ? sum / cells : 0) / rank) || 1e-3;
  const W = new Float64Array(V.rows * rank);
  const H = new Float64Array(rank * V.cols);
  for (let i = 0; i < W.length; i++) W[i] = scale * Math.abs(rng.normal());
  for (let i = 0; i < H.length; i++) H[i] = scale * Math.abs(rng.normal());
  return { W, H, rank };
}

/** Gram matrix AᵀA of a row-major (n × k) matrix: k × k. */
function gramOfRows(A: Float64Array, n: number, k: number): Float64Array {
  const G = new Float64Array(k * k);
  for (let i = 0; i < n; i++) {
    const o = i * k;
    for (let a = 0; a < k; a++) {
      const x = A[o + a];
      if (x === 0) continue;
      for (let b = a; b < k; b++) G[a * k + b] += x * A[o + b];
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) G[a * k + b] = G[b * k + a];
  return G;
}

/** Gram matrix B·Bᵀ of a row-major (k × m) matrix: k × k. */
function gramOfCols(B: Float64Array, k: number, m: number): Float64Array {
  const G = new Float64Array(k * k);
  for (let a = 0; a < k; a++) {
    for (let b = a; b < k; b++) {
      let s = 0;
      const oa = a * m;
      const ob = b * m;
      for (let j = 0; j < m; j++) s += B[oa + j] * B[ob + j];
      G[a * k + b] = s;
      G[b * k + a] = s;
    }
  }
  return G;
}

/** V·Hᵀ (n × k). */
function vHt(V: CsrMatrix, H: Float64Array, k: number): Float64Array {
  const m = V.cols;
  // Hᵀ row-major (m × k) so the inner loop reads contiguous memory.
  const Ht = new Float64Array(m * k);
  for (let t = 0; t < k; t++) for (let j = 0; j < m; j++) Ht[j * k + t] = H[t * m + j];
  const P = new Float64Array(V.rows * k);
  for (let i = 0; i < V.rows; i++) {
    const o = i * k;
    for (let p = V.rowPtr[i]; p < V.rowPtr[i + 1]; p++) {
      const v = V.values[p];
      const oh = V.colIdx[p] * k;
      for (let t = 0; t < k; t++) P[o + t] += v * Ht[oh + t];
    }
  }
  return P;
}

/** Wᵀ·V (k × m). */
function wtV(V: CsrMatrix, W: Float64Array, k: number): Float64Array {
  const m = V.cols;
  const Q = new Float64Array(k * m);
  for (let i = 0; i < V.rows; i++) {
    const o = i * k;
    for (let p = V.rowPtr[i]; p < V.rowPtr[i + 1]; p++) {
      const v = V.values[p];
      const j = V.colIdx[p];
      for (let t = 0; t < k; t++) Q[t * m + j] += W[o + t] * v;
    }
  }
  return Q;
}

function squaredNorm(V: CsrMatrix): number {
  let s = 0;
  for (const v of V.values) s += v * v;
  return s;
}

/** ‖V − WH‖_F² = ‖V‖² − 2⟨W, VHᵀ⟩ + ⟨WᵀW, HHᵀ⟩, without forming WH. */
function squaredErrorFrom(vNorm2: number, W: Float64Array, P: Float64Array, WtW: Float64Array, HHt: Float64Array): number {
  let cross = 0;
  for (let i = 0; i < W.length; i++) cross += W[i] * P[i];
  let quad = 0;
  for (let i = 0; i < WtW.length; i++) quad += WtW[i] * HHt[i];
  return Math.max(0, vNorm2 - 2 * cross + quad);
}

/** ‖V − WH‖_F. */
export function reconstructionError(V: CsrMatrix, f: NmfFactors): number {
  const k = f.rank;
  return Math.sqrt(
    squaredErrorFrom(squaredNorm(V), f.W, vHt(V, f.H, k), gramOfRows(f.W, V.rows, k), gramOfCols(f.H, k, V.cols)),
  );
}

/** One multiplicative update (H, then W with the new H). Pure: returns new factors. */
export function nmfStep(V: CsrMatrix, f: NmfFactors): NmfFactors {
  return stepWithError(V, f, squaredNorm(V)).factors;
}

function stepWithError(V: CsrMatrix, f: NmfFactors, vNorm2: number): { factors: NmfFactors; error: number } {
  const k = f.rank;
  const n = V.rows;
  const m = V.cols;
  // H ← H ∘ (WᵀV) / (WᵀW·H)
  const WtW = gramOfRows(f.W, n, k);
  const Q = wtV(V, f.W, k);
  const H = new Float64Array(k * m);
  for (let t = 0; t < k; t++) {
    for (let j = 0; j < m; j++) {
      let d = 0;
      for (let s = 0; s < k; s++) d += WtW[t * k + s] * f.H[s * m + j];
      H[t * m + j] = (f.H[t * m + j] * Q[t * m + j]) / (d + EPS);
    }
  }
  // W ← W ∘ (VHᵀ) / (W·HHᵀ)
  const HHt = gramOfCols(H, k, m);
  const P = vHt(V, H, k);
  const W = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const o = i * k;
    for (let t = 0; t < k; t++) {
      let d = 0;
      for (let s = 0; s < k; s++) d += f.W[o + s] * HHt[s * k + t];
      W[o + t] = (f.W[o + t] * P[o + t]) / (d + EPS);
    }
  }
  const error = Math.sqrt(squaredErrorFrom(vNorm2, W, P, gramOfRows(W, n, k), HHt));
  return { factors: { W, H, rank: k }, error };
}

/** Factorise V with seeded initialisation; stops on a relative error change below `tolerance` or `maxIterations`. */
export function nmf(V: CsrMatrix, opts: NmfOptions): NmfResult {
  const maxIterations = opts.maxIterations ?? 300;
  const tolerance = opts.tolerance ?? 1e-4;
  const vNorm2 = squaredNorm(V);
  let f = initFactors(V, opts.rank, opts.seed);
  let error = reconstructionError(V, f);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    const next = stepWithError(V, f, vNorm2);
    iterations++;
    const change = Math.abs(error - next.error) / Math.max(error, Number.MIN_VALUE);
    f = next.factors;
    error = next.error;
    if (change < tolerance) {
      converged = true;
      break;
    }
  }
  return { ...f, iterations, error, converged };
}

/** The factors as ml-matrix matrices (W: rows × rank, H: rank × cols). */
export function asMatrices(V: Pick<CsrMatrix, "rows" | "cols">, f: NmfFactors): { W: Matrix; H: Matrix } {
  return {
    W: Matrix.from1DArray(V.rows, f.rank, Array.from(f.W)),
    H: Matrix.from1DArray(f.rank, V.cols, Array.from(f.H)),
  };
}
