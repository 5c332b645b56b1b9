import fc from "fast-check";
import { Matrix } from "ml-matrix";
import { describe, expect, it } from "vitest";
import { asMatrices, csrFromDense, initFactors, nmf, nmfStep, reconstructionError, type NmfFactors } from "@/lib/analysis/nmf";

/** A small problem: V (n × m, non-negative, with zeros) and positive-or-zero starting factors of rank k. */
const problem = fc
  .record({ n: fc.integer({ min: 1, max: 6 }), m: fc.integer({ min: 1, max: 6 }), k: fc.integer({ min: 1, max: 4 }) })
  .chain(({ n, m, k }) =>
    fc.record({
      V: fc.array(fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 3, noNaN: true })), { minLength: m, maxLength: m }), {
        minLength: n,
        maxLength: n,
      }),
      W: fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { minLength: n * k, maxLength: n * k }),
      H: fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { minLength: k * m, maxLength: k * m }),
      k: fc.constant(k),
    }),
  );

function denseError(V: number[][], f: NmfFactors, n: number, m: number): number {
  const { W, H } = asMatrices({ rows: n, cols: m }, f);
  return Matrix.sub(new Matrix(V), W.mmul(H)).norm("frobenius");
}

describe("NMF multiplicative update (property tests)", () => {
  it("keeps every entry non-negative", () => {
    fc.assert(
      fc.property(problem, ({ V, W, H, k }) => {
        const next = nmfStep(csrFromDense(V), { W: Float64Array.from(W), H: Float64Array.from(H), rank: k });
        return next.W.every((x) => x >= 0 && Number.isFinite(x)) && next.H.every((x) => x >= 0 && Number.isFinite(x));
      }),
      { numRuns: 300 },
    );
  });

  it("never increases the reconstruction error (up to rounding)", () => {
    fc.assert(
      fc.property(problem, ({ V, W, H, k }) => {
        const csr = csrFromDense(V);
        const f = { W: Float64Array.from(W), H: Float64Array.from(H), rank: k };
        const before = denseError(V, f, V.length, V[0].length);
        const after = denseError(V, nmfStep(csr, f), V.length, V[0].length);
        return after <= before * (1 + 1e-9) + 1e-9;
      }),
      { numRuns: 300 },
    );
  });

  it("computes the sparse reconstruction error like a dense ml-matrix computation", () => {
    fc.assert(
      fc.property(problem, ({ V, W, H, k }) => {
        const f = { W: Float64Array.from(W), H: Float64Array.from(H), rank: k };
        const sparse = reconstructionError(csrFromDense(V), f);
        const dense = denseError(V, f, V.length, V[0].length);
        return Math.abs(sparse - dense) <= 1e-6 * (1 + dense);
      }),
      { numRuns: 200 },
    );
  });
});

describe("nmf", () => {
  const V = csrFromDense([
    [3, 2, 0, 0, 0],
    [2, 3, 1, 0, 0],
    [0, 0, 0, 3, 2],
    [0, 0, 1, 2, 3],
    [3, 3, 0, 0, 1],
  ]);

  it("is fixed by its seed: same seed, same factors; another seed, same shape", () => {
    const a = nmf(V, { rank: 2, seed: 7 });
    const b = nmf(V, { rank: 2, seed: 7 });
    expect(Array.from(a.W)).toEqual(Array.from(b.W));
    expect(Array.from(a.H)).toEqual(Array.from(b.H));
    expect(a.iterations).toBe(b.iterations);
    const c = nmf(V, { rank: 2, seed: 8 });
    expect(Array.from(c.W)).not.toEqual(Array.from(a.W));
    expect(c.W.length).toBe(a.W.length);
    expect(c.H.length).toBe(a.H.length);
  });

  it("starts from seeded non-negative factors and stops on the relative-change rule or the iteration cap", () => {
    const init = initFactors(V, 2, 1);
    expect(init.W.every((x) => x >= 0)).toBe(true);
    const fit = nmf(V, { rank: 2, seed: 1 });
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(300);
    expect(fit.error).toBeLessThan(reconstructionError(V, init));
    const capped = nmf(V, { rank: 2, seed: 1, maxIterations: 3, tolerance: 0 });
    expect(capped.iterations).toBe(3);
    expect(capped.converged).toBe(false);
  });

  it("separates two blocks of a block matrix", () => {
    const fit = nmf(V, { rank: 2, seed: 3 });
    const m = 5;
    // Each factor puts its largest term weight in a different block (terms 0-1 vs 3-4).
    const top = [0, 1].map((t) => {
      let best = 0;
      for (let j = 0; j < m; j++) if (fit.H[t * m + j] > fit.H[t * m + best]) best = j;
      return best < 2 ? "a" : best > 2 ? "b" : "mid";
    });
    expect(top.sort()).toEqual(["a", "b"]);
  });
});
