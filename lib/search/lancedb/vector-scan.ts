/**
 * The in-memory document vector scan (docs/search.md "Document vectors"): a column-major copy of the vectors and the
 * similarity of a query with every row, bit for bit a plain dot product.
 */
import type { IvfModel } from "./ann";
import type { StoredDoc } from "./live-index";
import { scanKernel, type ScanKernel } from "./scan-kernel";

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
  /** The SIMD scan over `cols` (scan-kernel.ts; `cols` is its memory), or null: the JavaScript loop. */
  kernel: ScanKernel | null;
}

/**
 * The column-major copy of the first `rows` rows of a row-major matrix (see VectorColumns); with `perm`, column
 * position r holds row perm[r] (the IVF layout).
 */
export function vectorColumns(
  vectors: Float32Array<ArrayBufferLike>,
  rows: number,
  dim: number,
  perm?: Int32Array,
  /**
   * A copy being replaced (nothing reads it any more): its kernel memory is overwritten when the size matches,
   * instead of holding two until the old one is collected (a WebAssembly memory is freed only by GC; at 10x the demo
   * corpus each is ~190 MB).
   */
  replaced?: VectorColumns | null,
): VectorColumns {
  const kernel = replaced?.kernel && replaced.rows === rows && replaced.dim === dim ? replaced.kernel : scanKernel(rows, dim);
  const cols = kernel ? kernel.cols : new Float32Array(rows * dim);
  // x * 0 is 0 for every finite x and NaN otherwise: one NaN check at the end instead of a branch per component.
  let check = 0;
  // Rows in blocks so the writes of a block stay in cache (a plain transpose writes one cache line per component).
  const BLOCK = 64;
  for (let r0 = 0; r0 < rows; r0 += BLOCK) {
    const r1 = Math.min(rows, r0 + BLOCK);
    for (let d = 0; d < dim; d++) {
      const base = d * rows;
      for (let r = r0; r < r1; r++) {
        const x = vectors[(perm ? perm[r] : r) * dim + d];
        check += x * 0;
        cols[base + r] = x;
      }
    }
  }
  return { rows, dim, cols, finite: check === 0, kernel };
}

/**
 * out[r] = the dot product of row r with `q`, bit for bit what `let s = 0; for (d = 0; d < dim; d++) s += v[d] * q[d]`
 * gives: every row adds its products in ascending d, in double precision (a float32 product is exact in a double).
 * Only the query's non-zero components are read when the stored components are all finite (see VectorColumns).
 * Eight columns a pass keep each row's running sum in a register for eight additions.
 */
export function scanSimilarities(vc: VectorColumns, q: Float32Array, out: Float64Array): void {
  const used = new Int32Array(vc.dim);
  const m = usedComponents(vc, q, used);
  scanRange(vc, q, used, m, out, 0, vc.rows);
}

/** The components of `q` a scan must read into `used` (all of them when a stored component is not finite); their count. */
export function usedComponents(vc: VectorColumns, q: Float32Array, used: Int32Array): number {
  let m = 0;
  for (let d = 0; d < vc.dim; d++) if (!vc.finite || q[d] !== 0) used[m++] = d;
  return m;
}

/**
 * scanSimilarities over the column rows [from, to) only (out[r] for those r), reading the components `used[0..m)`:
 * the probe of one IVF list (ann.ts) when the columns are stored list by list.
 */
export function scanRange(
  vc: VectorColumns,
  q: Float32Array,
  used: Int32Array,
  m: number,
  out: Float64Array,
  from: number,
  to: number,
): void {
  const { rows, cols, kernel } = vc;
  if (kernel) {
    for (let j = 0; j < m; j++) {
      kernel.used[j] = used[j];
      kernel.qv[j] = q[used[j]];
    }
    kernel.scan(m, from, to);
    if (out !== kernel.sums) out.set(kernel.sums.subarray(from, to), from);
    return;
  }
  out.fill(0, from, to);
  let j = 0;
  for (; j + 8 <= m; j += 8) {
    const d0 = used[j], d1 = used[j + 1], d2 = used[j + 2], d3 = used[j + 3];
    const d4 = used[j + 4], d5 = used[j + 5], d6 = used[j + 6], d7 = used[j + 7];
    const q0 = q[d0], q1 = q[d1], q2 = q[d2], q3 = q[d3], q4 = q[d4], q5 = q[d5], q6 = q[d6], q7 = q[d7];
    const b0 = d0 * rows, b1 = d1 * rows, b2 = d2 * rows, b3 = d3 * rows;
    const b4 = d4 * rows, b5 = d5 * rows, b6 = d6 * rows, b7 = d7 * rows;
    for (let r = from; r < to; r++) {
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
    for (let r = from; r < to; r++) out[r] += cols[b + r] * qd;
  }
}

/**
 * The similarity of row `row` of a row-major matrix with `q` over the components `used[0..m)`, summed as the scan
 * sums (ascending components, in double precision): bit-identical to the scan's value for that row.
 */
export function rowSimilarity(vectors: Float32Array<ArrayBufferLike>, dim: number, row: number, q: Float32Array, used: Int32Array, m: number): number {
  const base = row * dim;
  let s = 0;
  for (let j = 0; j < m; j++) s += vectors[base + used[j]] * q[used[j]];
  return s;
}

/** The largest L2 norm of the first `rows` rows (1 for embedder vectors, up to rounding): bounds any similarity. */
export function maxRowNorm(vectors: Float32Array<ArrayBufferLike>, rows: number, dim: number): number {
  let max = 0;
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let d = r * dim, end = d + dim; d < end; d++) s += vectors[d] * vectors[d];
    if (s > max) max = s;
  }
  return Math.sqrt(max);
}

/** The engine's vector scan state (LiveIndex.vectorIndex). */
export interface VectorIndex {
  /** docsVersion and `vectors` it was built from. */
  version: number;
  vectors: Float32Array<ArrayBufferLike>;
  columns: VectorColumns;
  /** The stored document of each row (what a filter is evaluated on). */
  docs: Array<StoredDoc | undefined>;
  /** Scratch: similarity per row (one per generation: read it synchronously). */
  sims: Float64Array;
  /** maxRowNorm of the rows: |similarity| <= |q| * maxNorm (Cauchy-Schwarz), what hybrid pruning relies on. */
  maxNorm: number;
  /** The IVF partition when the approximate index is on (ann.ts): `columns` then hold the rows list by list. */
  ivf: IvfLayout | null;
}

/** The rows of `columns` grouped by IVF list: column position p holds row perm[p]; list c is [offsets[c], offsets[c + 1]). */
export interface IvfLayout {
  model: IvfModel;
  perm: Int32Array;
  offsets: Int32Array;
  /** Scratch per column position, and per row: the probe a row was last scanned by. */
  psims: Float64Array;
  stamp: Uint32Array;
  tick: number;
  /** Scratch: the probed rows and their similarities, in probe order. */
  cand: Int32Array;
  candSims: Float64Array;
  used: Int32Array;
  /** How many of `used` the last probe set. */
  usedCount: number;
  /** Per list: the probe that last scanned it (`tick`). */
  listStamp: Uint32Array;
  /** The list of each row; scratch per list (fillSimilarities). */
  listOf: Int32Array;
  listNeed: Int32Array;
}
