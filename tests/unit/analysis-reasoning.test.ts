import { describe, expect, it } from "vitest";
import { fold } from "@/lib/search/text/tokenize";
import {
  compilePatterns,
  findPatternMatches,
  foldText,
  foldWithOffsets,
  REASONING_PATTERNS,
  REASONING_STYLES,
  scoreStyles,
} from "@/lib/analysis/reasoning-patterns";

// Hand-written paragraphs, each leaning on one style (the phrases are what the patterns document).
const PL_TELEOLOGICAL =
  "Sąd Apelacyjny zważył, co następuje. Wykładnia celowościowa art. 178a § 1 k.k. prowadzi do wniosku, że celem przepisu " +
  "jest ochrona bezpieczeństwa w komunikacji. Taka była intencja ustawodawcy, a ratio legis tej regulacji nie pozwala na " +
  "zawężające jej rozumienie. Przedmiotem ochrony jest bezpieczeństwo innych uczestników ruchu.";
const PL_DEDUCTIVE =
  "Oskarżony zabrał telefon w celu przywłaszczenia, używając przemocy. Zachowanie to wyczerpuje znamiona przestępstwa " +
  "z art. 280 § 1 k.k., a zatem kwalifikacja prawna jest trafna. Skoro sprawca działał z zamiarem bezpośrednim, to " +
  "zarzut błędu w ustaleniach jest chybiony. Tym samym apelacja nie mogła odnieść skutku.";
const EN_POLICY =
  "In our judgment the sentence must contain a substantial element of deterrence. Offences of this kind undermine public " +
  "confidence in the criminal justice system, and it is plainly in the public interest that those who carry knives " +
  "should know what to expect. The protection of the public requires a longer term.";
const EN_ANALOGICAL =
  "As this court explained in R v Pola [2009] EWCA Crim 655, the question is whether the error could have affected the " +
  "verdict. That approach was followed in R v Jones, and the present case is on all fours with it. By analogy, the " +
  "same reasoning applies to the second count.";

describe("reasoning patterns: the data file", () => {
  it("every pattern matches its own example and nothing of another style in it", () => {
    for (const p of REASONING_PATTERNS) {
      const matches = findPatternMatches(p.example);
      expect(matches.map((m) => m.pattern.id), p.id).toContain(p.id);
      expect(matches.filter((m) => m.pattern.style !== p.style).map((m) => m.pattern.id), p.id).toEqual([]);
    }
  });

  it("has unique ids and patterns in both languages for every style", () => {
    const ids = REASONING_PATTERNS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const style of REASONING_STYLES) {
      for (const lang of ["pl", "en"] as const) {
        expect(REASONING_PATTERNS.filter((p) => p.style === style && p.lang === lang).length, `${style}/${lang}`).toBeGreaterThanOrEqual(4);
      }
    }
  });
});

describe("pattern lists", () => {
  it("refuses capturing groups (they would confuse which pattern matched) and counts overlapping phrases once", () => {
    const bad = compilePatterns([{ id: "x", style: "policy", lang: "en", phrase: "x", note: "", example: "", regex: "(a)b" }]);
    expect(() => findPatternMatches("ab", bad)).toThrow(/capturing groups/);
    const two = compilePatterns([
      { id: "long", style: "policy", lang: "en", phrase: "", note: "", example: "", regex: "\\bpublic interest\\b" },
      { id: "short", style: "policy", lang: "en", phrase: "", note: "", example: "", regex: "\\binterest\\b" },
    ]);
    expect(findPatternMatches("in the Public Interest; interest", two).map((m) => m.pattern.id)).toEqual(["long", "short"]);
    expect(() => compilePatterns([{ id: "y", style: "vibes", lang: "en", phrase: "", note: "", example: "", regex: "a" }])).toThrow(
      /unknown style/,
    );
  });
});

describe("scoreStyles", () => {
  it("scores a Polish purposive paragraph teleological, with evidence pointing at the judgment", () => {
    const s = scoreStyles([{ document_id: "doc-pl-1", case_number: "II AKa 1/20", text: PL_TELEOLOGICAL }]);
    expect(s.documents).toBe(1);
    expect(s.counts.teleological).toBe(5);
    expect(s.styles.teleological).toBe(100);
    expect(s.styles.policy).toBe(0);
    expect(s.evidence.map((e) => e.pattern_id).sort()).toEqual([
      "pl-teleological-cel-przepisu",
      "pl-teleological-dobro-chronione",
      "pl-teleological-ratio-legis",
      "pl-teleological-ustawodawca",
      "pl-teleological-wykladnia-celowosciowa",
    ]);
    const ratio = s.evidence.find((e) => e.pattern_id === "pl-teleological-ratio-legis");
    expect(ratio?.examples).toEqual([
      { document_id: "doc-pl-1", case_number: "II AKa 1/20", snippet: expect.stringContaining("ratio legis tej regulacji") },
    ]);
  });

  it("scores a Polish subsumption paragraph deductive and keeps the original spelling in snippets", () => {
    const s = scoreStyles([{ document_id: "d2", text: PL_DEDUCTIVE }]);
    expect(s.counts).toEqual({ textual: 0, deductive: 4, analogical: 0, policy: 0, teleological: 0 });
    expect(s.styles.deductive).toBe(100);
    const znamiona = s.evidence.find((e) => e.pattern_id === "pl-deductive-znamiona");
    expect(znamiona?.examples[0].snippet).toContain("wyczerpuje znamiona przestępstwa");
    expect(znamiona?.examples[0].case_number).toBeNull();
  });

  it("scores English paragraphs: policy and analogical, max-normalised across styles", () => {
    const s = scoreStyles([
      { document_id: "uk-1", text: EN_POLICY },
      { document_id: "uk-2", text: EN_ANALOGICAL },
    ]);
    expect(s.counts.policy).toBe(4);
    expect(s.counts.analogical).toBe(4);
    expect(s.styles).toEqual({ textual: 0, deductive: 0, analogical: 100, policy: 100, teleological: 0 });
    const deterrence = s.evidence.find((e) => e.pattern_id === "en-policy-deterrence");
    expect(deterrence?.examples.map((e) => e.document_id)).toEqual(["uk-1"]);
  });

  it("normalises to the most used style and counts every occurrence", () => {
    const s = scoreStyles([
      { document_id: "a", text: `${PL_DEDUCTIVE} ${PL_DEDUCTIVE} ${PL_TELEOLOGICAL}` },
    ]);
    expect(s.counts.deductive).toBe(8);
    expect(s.counts.teleological).toBe(5);
    expect(s.styles.deductive).toBe(100);
    expect(s.styles.teleological).toBe(63); // 100 · 5 / 8, rounded
    // One example per document, however often the phrase occurs in it.
    const aZatem = s.evidence.find((e) => e.pattern_id === "pl-deductive-a-zatem");
    expect(aZatem?.count).toBe(2);
    expect(aZatem?.examples).toHaveLength(1);
  });

  it("is accent- and case-insensitive", () => {
    const s = scoreStyles([{ document_id: "x", text: "WYKLADNIA CELOWOSCIOWA i Intencja Ustawodawcy" }]);
    expect(s.counts.teleological).toBe(2);
  });

  it("matches phrasing met in real judgments (spot checks)", () => {
    const ids = (t: string) => findPatternMatches(t).map((m) => m.pattern.id);
    expect(ids("wyjście poza nią ma oparcie w wykładni systemowej i funkcjonalnej")).toEqual(["pl-teleological-wykladnia-celowosciowa"]);
    expect(ids("stoi za nim tylko argument z zakresu wykładni językowej")).toEqual(["pl-textual-wykladnia-jezykowa"]);
    expect(ids("It is well established that this court is a court of review.")).toEqual(["en-analogical-well-established"]);
  });

  it("gives all zeros and no evidence when nothing matches", () => {
    const s = scoreStyles([{ document_id: "x", text: "The appellant was sentenced to two years." }]);
    expect(s.styles).toEqual({ textual: 0, deductive: 0, analogical: 0, policy: 0, teleological: 0 });
    expect(s.evidence).toEqual([]);
  });
});

describe("folding with offsets", () => {
  it("foldText is the tokenizer's fold", () => {
    for (const t of ["Zażółć gęślą jaźń", "ŁÓDŹ", "Straße", "İstanbul", "Crème brûlée", "e\u0301te\u0301"]) {
      expect(foldText(t)).toBe(fold(t));
    }
  });

  it("maps matches back to the original text when folding changes the length", () => {
    // "ß" folds to "ss" and a decomposed "é" loses a unit: offsets must still point into the original.
    const text = "Die Straße. The purpose of the provision e\u0301te\u0301 was plain.";
    const ft = foldWithOffsets(text);
    expect(ft.map).not.toBeNull();
    const m = findPatternMatches(text).find((x) => x.pattern.id === "en-teleological-purpose");
    expect(m && text.slice(m.start, m.end)).toBe("purpose of the provision");
  });
});
