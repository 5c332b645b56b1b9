import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMPLETED_STATUSES,
  EMPTY_MARKERS,
  coverageRatio,
  flattenDotted,
  isCompletedStatus,
  isEmpty,
  isEmptyEnumValue,
  recordCoverage,
} from "@/lib/schema/completeness";

describe("completeness constants", () => {
  it("spec lists", () => {
    expect(COMPLETED_STATUSES).toEqual(["completed", "success", "partially_completed"]);
    expect(EMPTY_MARKERS).toHaveLength(11);
  });

  it("statuses match case-insensitively; missing or empty never counts", () => {
    expect(isCompletedStatus(" Completed ")).toBe(true);
    expect(isCompletedStatus("PARTIALLY_COMPLETED")).toBe(true);
    for (const s of [null, undefined, "", "pending", "failed"]) expect(isCompletedStatus(s)).toBe(false);
  });

  it("emptiness: markers, empty containers; 0 and false are values", () => {
    for (const v of [null, undefined, "", "  ", "N/A", "brak danych", " Nie dotyczy ", "UNKNOWN", [], {}]) expect(isEmpty(v)).toBe(true);
    for (const v of [0, false, "0", "no", ["x"], { a: null }, "unknownish"]) expect(isEmpty(v)).toBe(false);
    expect(isEmptyEnumValue("dont_know")).toBe(false);
    expect(isEmptyEnumValue("unknown")).toBe(false);
    expect(isEmptyEnumValue("")).toBe(true);
    expect(isEmptyEnumValue(null)).toBe(true);
  });

  it("flattens to dotted keys, keeping empty objects as leaves", () => {
    expect(flattenDotted({ a: { b: 1, c: {}, d: { e: [1] } }, x: null })).toEqual({ "a.b": 1, "a.c": {}, "a.d.e": [1], x: null });
    expect(recordCoverage({ a: { b: 1, c: {} }, d: "n/a", e: 0 })).toEqual({ covered: 2, total: 4, ratio: 0.5 });
  });

  it("coverage ratio: 4 decimals half-up, null on zero total", () => {
    expect(coverageRatio(0, 0)).toBeNull();
    expect(coverageRatio(1, 3)).toBe(0.3333);
    expect(coverageRatio(2, 3)).toBe(0.6667);
    expect(coverageRatio(1, 80000)).toBe(0); // 0.0000125 → 0.0000
    expect(coverageRatio(1, 20000)).toBe(0.0001); // tie 0.00005 rounds up
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (c, t) => {
        const r = coverageRatio(c, t)!;
        expect(Math.abs(r - c / t)).toBeLessThanOrEqual(0.00005 + 1e-12);
        expect(Math.round(r * 10000)).toBeCloseTo(r * 10000, 6);
      }),
    );
  });
});
