/**
 * The demo corpus never gives a judgment a citation its own templates cite as outside authority
 * (supabase/seed/citation-space.ts). Before, a UK template sentence cited R v Chin-Charles [2019] EWCA Crim 1140, one
 * generated judgment drew that neutral citation, and 4,703 judgments "cited" it; PL templates cited random appellate
 * judgments ("wyrok Sądu Apelacyjnego w … , II AKa n/yy") whose numbers corpus judgments also drew.
 *
 * The template citations are read with the real extractor: from every sentence of the pools, and from generated texts
 * before their texture (generateCore: the texture is what adds the citations of corpus judgments, so every case
 * reference of the text before it comes from a template).
 */
import { describe, expect, it } from "vitest";
import { extractReferences } from "@/lib/citations/extract";
import { documentCitationKeys } from "@/lib/search/citations";
import {
  corpusCaseNumber,
  corpusCitationNumber,
  PL_CASE_NUMBER_MAX,
  PL_EXTERNAL_CASE_NUMBERS,
  TEMPLATE_NEUTRAL_CITATIONS,
  TEMPLATE_PL_CASE_NUMBERS,
  UK_CITATION_MAX,
} from "@/supabase/seed/citation-space";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateCore, generateJudgment, rowCitations } from "@/supabase/seed/generate";
import { NETWORK_SLICE } from "@/supabase/seed/planted-citations";
import { PL_POOLS, PL_WITNESS } from "@/supabase/seed/pools-pl";
import { UK_POOLS, UK_WITNESS } from "@/supabase/seed/pools-uk";
import { yy } from "@/supabase/seed/text-util";

// Generating a few thousand texts takes a while on a busy 2-core machine: a harness limit, not a speed check.
const SLOW = { timeout: 300_000 };
const TEST_SEED = 7;

/** The canonical ids of the case references in `text` (the keys resolution matches corpus judgments by), but its own. */
function caseKeys(text: string, jurisdiction: "PL" | "UK", ownCitations: string[] = []): string[] {
  return extractReferences(text, { jurisdiction, ownCitations })
    .filter((r) => r.kind === "case" && r.canonicalId)
    .map((r) => r.canonicalId as string);
}

const poolKeys = (pools: Record<string, readonly string[]>, more: readonly string[], j: "PL" | "UK") =>
  [...Object.values(pools).flat(), ...more].flatMap((s) => caseKeys(s, j));

/** Every key a judgment of the corpus is found by (case number, neutral citation), for rows [0, n) of `seed`. */
function corpusKeys(seed: number, n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const c = rowCitations(seed, i);
    // PL rows carry the case number as their neutral citation too (pl.ts).
    const doc = { case_number: c.caseNumber, base_neutral_citation_number: c.neutralCitation ?? c.caseNumber };
    for (const k of documentCitationKeys(doc)) out.set(k, i);
  }
  return out;
}

describe("the citations the templates state are reserved", () => {
  it("the UK pools' neutral citations are all reserved (R v Chin-Charles, R v Pola, R v Erskine)", () => {
    const keys = poolKeys(UK_POOLS, UK_WITNESS, "UK");
    expect(keys).toEqual(expect.arrayContaining(["uk:2019 ewca crim 1140", "uk:2009 ewca crim 655", "uk:2009 ewca crim 1425"]));
    for (const k of keys) {
      const m = /^uk:(\d{4}) ewca crim (\d+)$/.exec(k);
      if (m) expect([k, TEMPLATE_NEUTRAL_CITATIONS.has(`${m[1]} ${m[2]}`)]).toEqual([k, true]);
    }
    expect(TEMPLATE_NEUTRAL_CITATIONS.size).toBe(new Set(keys.filter((k) => /^uk:\d{4} ewca crim \d+$/.test(k))).size);
  });

  it("a PL pool sentence stating an appellate case number reserves it (none does today)", () => {
    for (const k of poolKeys(PL_POOLS, PL_WITNESS, "PL")) {
      const m = /^pl:ii aka (\d+)\/(\d{2})$/.exec(k);
      if (m) expect([k, TEMPLATE_PL_CASE_NUMBERS.has(`${m[1]}/${m[2]}`)]).toEqual([k, true]);
    }
  });

  it("no draw of any year gives a corpus judgment a reserved citation, and an unreserved draw stays as drawn", () => {
    const wrong: string[] = [];
    for (let year = 2000; year <= 2030; year++) {
      for (let n = 1; n <= UK_CITATION_MAX; n++) {
        const got = corpusCitationNumber(year, n);
        const ok = got >= 1 && got <= UK_CITATION_MAX && !TEMPLATE_NEUTRAL_CITATIONS.has(`${year} ${got}`);
        if (!ok || (!TEMPLATE_NEUTRAL_CITATIONS.has(`${year} ${n}`) && got !== n)) wrong.push(`UK ${year} ${n} → ${got}`);
      }
      for (let n = 1; n <= PL_CASE_NUMBER_MAX; n++) {
        const got = corpusCaseNumber(yy(year), n);
        if (!(got >= 1 && got <= PL_CASE_NUMBER_MAX && !TEMPLATE_PL_CASE_NUMBERS.has(`${got}/${yy(year)}`))) wrong.push(`PL ${n}/${yy(year)} → ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(corpusCitationNumber(2019, 1140)).toBe(1141);
    expect(PL_EXTERNAL_CASE_NUMBERS.min).toBeGreaterThan(PL_CASE_NUMBER_MAX);
  });
});

describe("no generated judgment has a citation its templates cite", () => {
  it("rowCitations reads the citations the generated rows carry", () => {
    for (const [seed, i] of [[TEST_SEED, 0], [TEST_SEED, 1], [TEST_SEED, 2], [TEST_SEED, 3], [DEFAULT_CORPUS_SEED, 10], [DEFAULT_CORPUS_SEED, 11], [DEFAULT_CORPUS_SEED, 12]]) {
      const row = generateJudgment(seed, i);
      const core = generateCore(seed, i);
      const c = rowCitations(seed, i);
      expect(c.caseNumber).toBe(row.case_number);
      expect(c.jurisdiction).toBe(row.jurisdiction);
      expect(c.court).toBe(row.court_name);
      expect(c.neutralCitation).toBe(row.jurisdiction === "UK" ? core.c.extraction.neutral_citation_number : null);
    }
  });

  it("over the default corpus and the test slice, no judgment's case number or neutral citation is one a template text cites", SLOW, () => {
    const corpora = [
      { seed: DEFAULT_CORPUS_SEED, size: DEFAULT_CORPUS_SIZE, sample: (i: number) => i % 7 === 0 },
      { seed: TEST_SEED, size: NETWORK_SLICE, sample: () => true },
    ];
    for (const { seed, size, sample } of corpora) {
      const own = corpusKeys(seed, size);
      // Every case reference a template put in the sampled texts, plus those of the pools themselves.
      const cited = new Set([...poolKeys(UK_POOLS, UK_WITNESS, "UK"), ...poolKeys(PL_POOLS, PL_WITNESS, "PL")]);
      let texts = 0;
      for (let i = 0; i < size; i++) {
        if (!sample(i)) continue;
        const { c, jurisdiction } = generateCore(seed, i);
        const ownCitations = [c.caseNumber, c.extraction.neutral_citation_number].filter((x): x is string => typeof x === "string");
        for (const k of caseKeys(c.fullText, jurisdiction, ownCitations)) cited.add(k);
        texts++;
      }
      const external = [...cited].filter((k) => k.startsWith("pl:ii aka "));
      // The measure is not empty: the PL templates cite hundreds of appellate judgments, the UK ones their fixed cases.
      expect(texts).toBeGreaterThan(500);
      expect(external.length).toBeGreaterThan(seed === TEST_SEED ? 50 : 300);
      expect(cited.has("uk:2019 ewca crim 1140")).toBe(true);
      const clashes = [...cited].filter((k) => own.has(k)).map((k) => `${k} (row ${own.get(k)} of seed ${seed})`);
      expect(clashes).toEqual([]);
    }
  });
});
