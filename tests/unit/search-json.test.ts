import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiHit, searchAnswerJson } from "@/lib/backend/search-json";
import type { HitDocument } from "@/lib/search/types";

const value = fc.oneof(
  fc.string(),
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 4 }),
  fc.array(fc.record({ name: fc.string(), role: fc.option(fc.string(), { nil: undefined }) }), { maxLength: 3 }),
);
// Keys include integer-like ones (ordered first by JS) and the extras' names (which the hit overwrites).
const key = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("0", "12", "_formatted", "_ranking_score", "id"));
const documentArb = fc.dictionary(key, value, { maxKeys: 8 });

describe("searchAnswerJson", () => {
  it("is byte-for-byte JSON.stringify of the answer, frozen documents (cached) or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(documentArb, fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), fc.double({ noNaN: true }), fc.boolean()), { maxLength: 5 }),
        fc.dictionary(fc.string().filter((k) => k !== "hits"), value, { maxKeys: 4 }),
        (hits, rest) => {
          const made = hits.map(([doc, formatted, score, freeze]) =>
            apiHit({ document: (freeze ? Object.freeze({ ...doc }) : { ...doc }) as unknown as HitDocument, formatted, score }),
          );
          const body = { hits: made, ...rest, hits_again: undefined } as { hits: Record<string, unknown>[] } & Record<string, unknown>;
          // Twice: the second time frozen documents come from the cache.
          expect(searchAnswerJson(body)).toBe(JSON.stringify(body));
          expect(searchAnswerJson(body)).toBe(JSON.stringify(body));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("serialises plain hits (no parts) and answers whose first key is not hits like JSON.stringify", () => {
    const plain = { hits: [{ id: "a", _formatted: {}, _ranking_score: 1 }], query: "q" };
    expect(searchAnswerJson(plain)).toBe(JSON.stringify(plain));
    const other = { query: "q", hits: [apiHit({ document: Object.freeze({ id: "b" }) as HitDocument, formatted: { title: "<mark>x</mark>" }, score: 0.5 })] };
    expect(searchAnswerJson(other)).toBe(JSON.stringify(other));
  });
});
