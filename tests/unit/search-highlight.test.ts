/**
 * Highlighting and cropping of the LanceDB adapter's keyword path (lib/search/lancedb/highlight.ts) must return
 * exactly what the span-based implementation it replaced returned (kept below as the reference, over the regex
 * tokeniser): the fast path rules words out by length and first character without folding them, which must never
 * change a result.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "@/lib/search/index-settings";
import { crop, highlight, type MarkTerms } from "@/lib/search/lancedb/highlight";
import { escapeHtml } from "@/lib/text/html";
import { fold } from "@/lib/search/text/tokenize";
import { valueWords } from "@/lib/search/lancedb/text-words";

const WORD_RE = /[\p{L}\p{N}]+/gu;
const MARKS_RE = /\p{M}+/gu;
function refFold(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  return s.normalize("NFD").replace(MARKS_RE, "").toLowerCase().replace(/ł/g, "l").replace(/ß/g, "ss");
}
interface RefSpan {
  term: string;
  start: number;
  end: number;
}
function refSpans(text: string): RefSpan[] {
  return [...text.matchAll(WORD_RE)].map((m) => {
    const start = m.index ?? 0;
    return { term: refFold(m[0]), start, end: start + m[0].length };
  });
}
function refEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function refRender(text: string, ss: RefSpan[], terms: MarkTerms, from: number, to: number): string {
  let out = "";
  let pos = from;
  for (const s of ss) {
    if (s.start < from || s.end > to) continue;
    if (!terms.has(s.term)) continue;
    const m = terms.get(s.term);
    const len = m === null || m === undefined ? s.end - s.start : Math.min(m, s.end - s.start);
    out += refEscape(text.slice(pos, s.start));
    out += HIGHLIGHT_PRE_TAG + refEscape(text.slice(s.start, s.start + len)) + HIGHLIGHT_POST_TAG;
    pos = s.start + len;
  }
  return out + refEscape(text.slice(pos, to));
}
function refHighlight(text: string, terms: MarkTerms): string {
  return refRender(text, refSpans(text), terms, 0, text.length);
}
function refCrop(text: string, terms: MarkTerms, cropLength: number, mark: boolean): string {
  const ss = refSpans(text);
  if (ss.length <= cropLength) return mark ? refRender(text, ss, terms, 0, text.length) : refEscape(text);
  let bestStart = 0;
  let bestCount = -1;
  const isMatch = ss.map((s) => terms.has(s.term));
  let count = 0;
  for (let i = 0; i < cropLength; i++) if (isMatch[i]) count++;
  if (isMatch.indexOf(true) >= 0) {
    for (let start = 0; start + cropLength <= ss.length; start++) {
      if (start > 0) {
        if (isMatch[start - 1]) count--;
        if (isMatch[start + cropLength - 1]) count++;
      }
      if (count > bestCount) {
        bestCount = count;
        bestStart = start;
      }
    }
    const fm = isMatch.indexOf(true, bestStart);
    const centred = Math.max(0, Math.min(ss.length - cropLength, fm - Math.floor((cropLength - 1) / 2)));
    let centredCount = 0;
    for (let i = centred; i < centred + cropLength; i++) if (isMatch[i]) centredCount++;
    if (centredCount >= bestCount) bestStart = centred;
    // Then the nearest sentence start (the first word, or one after . ! ?) within half a window that keeps as many
    // matches, nearer first and earlier first at equal distance.
    const keep = Math.max(bestCount, centredCount);
    const sentence = (i: number) => i === 0 || /[.!?]/.test(text.slice(ss[i - 1].end, ss[i].start));
    const matchesFrom = (st: number) => isMatch.slice(st, st + cropLength).filter(Boolean).length;
    if (!sentence(bestStart)) {
      search: for (let d = 1; d <= Math.floor(cropLength / 2); d++) {
        for (const st of [bestStart - d, bestStart + d]) {
          if (st >= 0 && st + cropLength <= ss.length && sentence(st) && matchesFrom(st) >= keep) {
            bestStart = st;
            break search;
          }
        }
      }
    }
  }
  const from = ss[bestStart].start;
  const to = ss[bestStart + cropLength - 1].end;
  const body = mark ? refRender(text, ss, terms, from, to) : refEscape(text.slice(from, to));
  return (bestStart > 0 ? "…" : "") + body + (bestStart + cropLength < ss.length ? "…" : "");
}

const WORDS = [
  "murder", "Murder", "MURDER", "robbery", "Robbery", "robbed", "knife", "a", "A", "zabójstwo", "Zabójstwo",
  "zabojstwo", "ZABÓJSTWO", "Łódź", "łódź", "lodz", "Straße", "strasse", "Ωmega", "ωmega", "ΣΟΦΙΑ", "σοφια", "İstanbul",
  "istanbul", "Kelvin", "\u212aelvin", "ﬁre", "fire", "한국", "e\u0301te", "éte", "𝐀𝐁", "𐐀𐐨", "𐐨𐐨", "2022", "x".repeat(70),
  "X".repeat(70), "ą".repeat(65), "że", "Że", "sąd", "Sąd", "wolności", "wolnosci",
];
const SEPARATORS = [" ", "  ", ", ", ". ", " & ", " <b> ", ' "', "-", "\n", " … ", "\u0301 ", "😀"];
const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 60 })
  .map((ps) => ps.map(([w, s]) => w + s).join(""));
const terms = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...WORDS).map(refFold), fc.constantFrom(...WORDS), fc.string({ maxLength: 4 })),
      fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 8 })),
    ),
    { maxLength: 8 },
  )
  .map((entries) => new Map(entries) as MarkTerms);

describe("highlight and crop", () => {
  it("highlight() equals the reference", () => {
    fc.assert(
      fc.property(text, terms, (t, m) => {
        expect(highlight(t, m)).toBe(refHighlight(t, m));
      }),
      { numRuns: 2000 },
    );
  });

  it("crop() starts the snippet at a sentence when that keeps the matches", () => {
    const text = "The court heard the appeal. The appellant was convicted of robbery with a knife at a shop. Costs were awarded.";
    const terms: MarkTerms = new Map([["robbery", null], ["knife", null]]);
    expect(crop(text, terms, 12, true)).toBe(
      "…The appellant was convicted of <mark>robbery</mark> with a <mark>knife</mark> at a shop…",
    );
  });

  it("crop() equals the reference", () => {
    fc.assert(
      fc.property(text, terms, fc.integer({ min: 1, max: 12 }), fc.boolean(), (t, m, n, mark) => {
        expect(crop(t, m, n, mark)).toBe(refCrop(t, m, n, mark));
      }),
      { numRuns: 2000 },
    );
  });

  it("a text formatted again, with other terms or after other texts, equals the reference (its words are cached)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, terms, fc.integer({ min: 1, max: 12 })), { minLength: 1, maxLength: 4 }), terms, (cases, other) => {
        for (const pass of [0, 1]) {
          for (const [t, m, n] of cases) {
            const ts = pass === 0 ? m : other;
            expect(crop(t, ts, n, true)).toBe(refCrop(t, ts, n, true));
            expect(highlight(t, ts)).toBe(refHighlight(t, ts));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a stored value's indexed words (a text's, each element's of an array) format like the text itself", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), terms, fc.integer({ min: 1, max: 12 }), (texts, m, n) => {
        // What format.ts indexes once per stored document: a string field, and an array of texts element by element.
        const single = valueWords(texts[0]);
        const each = valueWords(texts);
        if (single === null || Array.isArray(single) || !Array.isArray(each)) throw new Error("a text and an array of texts are indexed");
        expect(crop(texts[0], m, n, true, single)).toBe(refCrop(texts[0], m, n, true));
        expect(highlight(texts[0], m, single)).toBe(refHighlight(texts[0], m));
        texts.forEach((t, i) => {
          expect(crop(t, m, n, true, each[i])).toBe(refCrop(t, m, n, true));
          expect(highlight(t, m, each[i])).toBe(refHighlight(t, m));
        });
      }),
      { numRuns: 500 },
    );
  });

  it("a word's fold starts with the fold of its first character", () => {
    for (let c = 0x80; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      if (!/^[\p{L}\p{N}]$/u.test(ch)) continue;
      const f = fold(ch);
      if (f === "") continue;
      for (const rest of ["ab", "Σß\u0301ł"]) expect(fold(ch + rest)[0]).toBe(f[0]);
    }
  });

  it("escapes the four HTML characters", () => {
    expect(escapeHtml(`a & b < c > d "e"`)).toBe("a &amp; b &lt; c &gt; d &quot;e&quot;");
    expect(escapeHtml("plain")).toBe("plain");
  });
});
