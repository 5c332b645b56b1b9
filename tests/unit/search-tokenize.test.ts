/**
 * The hand-written word scanner of lib/search/text/tokenize.ts must return exactly what the regex implementation it
 * replaced returned (/[\p{L}\p{N}]+/gu, kept below as the reference): same words, same offsets, same folding, for
 * any string, including Polish letters, combining marks (not word characters), astral-plane letters and digits,
 * emoji, lone surrogates, punctuation and digits.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold, spans, words } from "@/lib/search/text/tokenize";

const WORD_RE = /[\p{L}\p{N}]+/gu;
const MARKS_RE = /\p{M}+/gu;
const ASCII_RE = /^[\x00-\x7f]*$/;
function refFold(s: string): string {
  if (ASCII_RE.test(s)) return s.toLowerCase();
  return s.normalize("NFD").replace(MARKS_RE, "").toLowerCase().replace(/ł/g, "l").replace(/ß/g, "ss");
}
function refWords(text: string): string[] {
  return [...text.matchAll(WORD_RE)].map((m) => refFold(m[0]));
}
function refSpans(text: string): Array<{ term: string; start: number; end: number }> {
  return [...text.matchAll(WORD_RE)].map((m) => {
    const start = m.index ?? 0;
    return { term: refFold(m[0]), start, end: start + m[0].length };
  });
}

/** Pieces that exercise every branch of the scanner. */
const PIECES = [
  "a", "Z", "q", "0", "9", " ", "  ", "\t", "\n", ".", ",", "-", "_", "'", '"', "(", ")", "/", "&", "<", ">", "§",
  "ą", "ć", "ę", "ł", "ń", "ó", "ś", "ź", "ż", "Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż", "ß", "é", "Ü", "İ", "ı",
  "\u0301", "\u0328", "\u0307", "\u20dd", // combining marks (\p{M}): not word characters
  "e\u0301", "o\u0301", "Ω", "я", "中", "ا", "٣", "²", "½", "Ⅻ", "Ａ", "\u00a0", "\u200d", "\u2013", "…", "€",
  "𝐀", "𐐀", "𐐨", "𝟎", "𝟗", "\ud835\udfff", "\ud835\udc00", "𠀀", "😀", "👍🏽", "👨‍👩‍👧", "🇵🇱", "\ud800", "\udc00", "\udbff", "\ud835", "\udfce",
  "zabójstwo", "Kradzież", "ROBBERY", "2022", "EWCA", "Fabergé", "Ǆ", "ǅ",
];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 3 }) },
);
const text = fc.array(piece, { maxLength: 40 }).map((ps) => ps.join(""));

describe("tokenize scanner", () => {
  it("words() equals the regex implementation", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(words(t)).toEqual(refWords(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("spans() equals the regex implementation", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(spans(t)).toEqual(refSpans(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on arbitrary UTF-16 strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (t) => {
        expect(spans(t)).toEqual(refSpans(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on every code point, each alone, in pairs and in runs", () => {
    for (let from = 0; from < 0x110000; from += 0x1000) {
      const cps: string[] = [];
      for (let cp = from; cp < from + 0x1000; cp++) cps.push(String.fromCodePoint(cp));
      for (const t of [cps.join("-"), cps.join(""), cps.join("a")]) expect(spans(t)).toEqual(refSpans(t));
    }
  });

  it("fold() is unchanged", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(fold(t)).toBe(refFold(t));
      }),
    );
  });

  it("examples", () => {
    expect(words("Zabójstwo, ŁÓDŹ; 12 e\u0301t 𝐀𝟎 😀x")).toEqual(["zabojstwo", "lodz", "12", "e", "t", "𝐀𝟎", "x"]);
    expect(spans("a\ud800b")).toEqual([
      { term: "a", start: 0, end: 1 },
      { term: "b", start: 2, end: 3 },
    ]);
  });
});
