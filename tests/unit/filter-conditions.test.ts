import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { compileFilter, FilterCapError, parseFilter, parseIndexFilter, type FilterNode } from "@/lib/search/filter";

/**
 * A filter's cost per document grows with its conditions, so their number is capped (FILTER_MAX_CONDITIONS), and a chain
 * of equalities is evaluated as one set lookup: the review's 319 OR-ed `base_keywords = "vN"` cost ~1 s of event loop
 * per anonymous request.
 */
const chain = (n: number, op: string, join: string) => Array.from({ length: n }, (_, i) => `a ${op} "v${i}"`).join(join);

describe("conditions are capped", () => {
  it("the parser counts every condition, nested or not", () => {
    expect(() => parseFilter(chain(8, "=", " OR "), { maxConditions: 8 })).not.toThrow();
    expect(() => parseFilter(chain(9, "=", " OR "), { maxConditions: 8 })).toThrow(FilterCapError);
    expect(() => parseFilter(`(${chain(5, "!=", " AND ")}) OR (${chain(4, "=", " OR ")})`, { maxConditions: 8 })).toThrow(/at most 8/);
    expect(() => parseFilter("a EXISTS AND b IS NULL AND c IS NOT EMPTY AND d IN [1,2] AND e 1 TO 2", { maxConditions: 5 })).not.toThrow();
    expect(() => parseFilter("a EXISTS AND b IS NULL AND c IS NOT EMPTY AND d IN [1,2] AND e 1 TO 2 AND f > 1", { maxConditions: 5 })).toThrow(FilterCapError);
  });

  it("the service applies FILTER_MAX_CONDITIONS: the review's 319 comparisons are refused, the cap itself is not", () => {
    const cap = config().FILTER_MAX_CONDITIONS;
    expect(cap).toBe(64);
    const review = Array.from({ length: 319 }, (_, i) => `base_keywords = "v${i}"`).join(" OR ");
    expect(() => parseIndexFilter(review)).toThrow(FilterCapError);
    const atCap = Array.from({ length: cap }, (_, i) => `base_keywords = "v${i}"`).join(" OR ");
    expect(parseIndexFilter(atCap)).toBeDefined();
  });
});

describe("OR-ed equalities are evaluated as one membership test, with the same answers", () => {
  const scalar = fc.oneof(fc.constantFrom("X", "x", "Ąb", "ąB", "true", "FALSE", "7", " 7 ", ""), fc.integer({ min: -3, max: 9 }), fc.boolean(), fc.constant(null));
  const docValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
  const value = fc.oneof(fc.constantFrom("x", "ąb", "TRUE", "false", "7", "nine"), fc.integer({ min: -3, max: 9 }), fc.boolean());

  /** The reference: Meilisearch's equality written out on its own, each `=` tested one by one. */
  const scalarEquals = (x: unknown, v: string | number | boolean): boolean => {
    if (typeof x === "number") return (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN) === x;
    if (typeof x === "boolean") return v === x || (typeof v === "string" && v.toLowerCase() === String(x));
    if (typeof x === "string") return x.toLowerCase() === String(v).toLowerCase();
    return false;
  };
  const equals = (x: unknown, v: string | number | boolean) => (Array.isArray(x) ? x.some((e) => scalarEquals(e, v)) : scalarEquals(x, v));
  const separately = (eqs: [string, string | number | boolean][]) => (d: Record<string, unknown>) => eqs.some(([a, v]) => equals(d[a], v));

  it("on any document, a merged chain answers as its equalities one by one", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("a", "b"), value), { minLength: 1, maxLength: 8 }), fc.record({ a: docValue, b: docValue }), (eqs, doc) => {
        const node: FilterNode = { type: "or", children: eqs.map(([attribute, v]) => ({ type: "compare", attribute, op: "=", value: v })) };
        expect(compileFilter(node)(doc)).toBe(separately(eqs)(doc));
      }),
      { seed: 4242, numRuns: 2000 },
    );
  });

  it("`=` and `!=` keep Meilisearch's equality: case-insensitive strings, numbers and their string forms, array elements", () => {
    const eq = (v: string | number | boolean) => compileFilter({ type: "compare", attribute: "a", op: "=", value: v });
    const ne = (v: string | number | boolean) => compileFilter({ type: "compare", attribute: "a", op: "!=", value: v });
    expect(eq("KRADZIEŻ")({ a: "kradzież" })).toBe(true);
    expect(eq("7")({ a: 7 })).toBe(true);
    expect(eq(7)({ a: "7" })).toBe(true);
    expect(eq("true")({ a: true })).toBe(true);
    expect(eq("x")({ a: ["y", "X"] })).toBe(true);
    expect(eq("x")({})).toBe(false);
    expect(ne("x")({})).toBe(true);
    expect(ne("x")({ a: "X" })).toBe(false);
  });
});
