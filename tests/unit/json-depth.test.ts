import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@/lib/json-depth";

function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v !== null && typeof v === "object") return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

describe("jsonDepthExceeds", () => {
  it("agrees with the parsed value's depth for arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (v, max) => {
        expect(jsonDepthExceeds(JSON.stringify(v), max)).toBe(depthOf(v) > max);
      }),
    );
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonDepthExceeds(JSON.stringify({ a: "[[[[{{{{\\\"[[[[" }), 1)).toBe(false);
  });

  it("refuses 33 levels and passes 32 by default", () => {
    expect(jsonDepthExceeds("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it("scans a 120,000-deep text (a 500 on today's main) without overflowing the stack", () => {
    expect(jsonDepthExceeds('{"a":'.repeat(120_000) + "1" + "}".repeat(120_000))).toBe(true);
  });
});
