/**
 * One citation names one judgment of the demo corpus (supabase/seed/citation-space.ts, generator gen-4). Before, each
 * row drew its numbers on its own: the default corpus had 347 neutral citations two or more judgments shared (365
 * judgments too many), 17 Court of Appeal case numbers and 136 case numbers of one Polish appeal court, so a
 * citation resolved to several judgments and their titles named the same case.
 *
 * Now the rows claim their numbers in index order from one register per year (and per appeal court for PL) and a
 * taken draw moves to the next free number, with no extra draw: every other draw and every planted answer stay as they
 * were (tests/unit/seed-citation-space.test.ts keeps the template citations out of the corpus's numbers).
 */
import { describe, expect, it } from "vitest";
import { NumberRegister, PL_CASE_NUMBER_MAX, UK_CITATION_MAX } from "@/supabase/seed/citation-space";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateCore, rowCitations } from "@/supabase/seed/generate";
import { NETWORK_SLICE } from "@/supabase/seed/planted-citations";

const TEST_SEED = 7;

/** The keys two judgments of one corpus must never share, with the rows holding each (more than one is a clash). */
function sharedNumbers(seed: number, size: number): string[] {
  const holders = new Map<string, number[]>();
  const hold = (key: string, i: number) => holders.set(key, [...(holders.get(key) ?? []), i]);
  const malformed: string[] = [];
  for (let i = 0; i < size; i++) {
    const c = rowCitations(seed, i);
    if (c.jurisdiction === "UK") {
      hold(`neutral ${c.neutralCitation}`, i);
      // The whole Court of Appeal case number (`201901234 B1`, year, serial and list) is the key it resolves by.
      if (!/^\d{9} [A-Z]\d$/.test(c.caseNumber)) malformed.push(`malformed ${c.caseNumber} (row ${i})`);
      hold(`uk case ${c.caseNumber}`, i);
    } else {
      // Polish case numbers repeat across courts (each court's repertorium counts from 1 every year), never within one.
      hold(`${c.court}: ${c.caseNumber}`, i);
    }
  }
  return [...malformed, ...[...holders].filter(([, rows]) => rows.length > 1).map(([k, rows]) => `${k} (rows ${rows.join(", ")})`)];
}

describe("a register gives each number once", () => {
  it("a free draw stays, a taken one moves to the next free number, wrapping in the range, then overflows", () => {
    const r = new NumberRegister({ min: 1, max: 5 }, { min: 10, max: 11 }, [3]);
    // 2 is free; 3 is reserved, so the next 2 takes 4, then 5; 5 wraps to 1; then the range is full: 10, 11.
    expect([r.claim(2), r.claim(2), r.claim(2), r.claim(5), r.claim(5), r.claim(1)]).toEqual([2, 4, 5, 1, 10, 11]);
    // Range and overflow full: the draw itself (no number is left to give).
    expect(r.claim(4)).toBe(4);
  });

  it("claims stay cheap however full the register (no scan over the taken numbers)", () => {
    const r = new NumberRegister({ min: 1, max: UK_CITATION_MAX }, { min: UK_CITATION_MAX + 1, max: 99_999 });
    const got = new Set<number>();
    const started = performance.now();
    for (let i = 0; i < 50_000; i++) got.add(r.claim(1 + (i % 7)));
    expect(got.size).toBe(50_000);
    // A scan from the draw would take ~1.25e9 steps here (seconds); the pointers take well under one.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("no two judgments of a corpus share a neutral citation or a case number", () => {
  it("the test slice (seed 7, 600 rows)", () => {
    expect(sharedNumbers(TEST_SEED, NETWORK_SLICE)).toEqual([]);
  });

  it("the default corpus (12,307 rows)", () => {
    expect(sharedNumbers(DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE)).toEqual([]);
  });

  it("every number stays in its drawn range at these sizes (no register overflows)", () => {
    for (let i = 0; i < DEFAULT_CORPUS_SIZE; i++) {
      const c = rowCitations(DEFAULT_CORPUS_SEED, i);
      const n = c.jurisdiction === "UK" ? Number(/ (\d+)$/.exec(c.neutralCitation ?? "")?.[1]) : Number(/ (\d+)\//.exec(c.caseNumber)?.[1]);
      expect([i, n >= 1 && n <= (c.jurisdiction === "UK" ? UK_CITATION_MAX : PL_CASE_NUMBER_MAX)]).toEqual([i, true]);
    }
  });

  it("a row whose draw was taken carries the number it moved to, in its text and extraction as in rowCitations", () => {
    // Rows of the default corpus whose gen-3 number an earlier row held (or, after a move, took): a UK neutral
    // citation ([2023] EWCA Crim 2043 → 2044), a UK case number, a PL case number of one court (II AKa 186/17 → 187/17).
    for (const i of [949, 2347, 539]) {
      const { c, jurisdiction } = generateCore(DEFAULT_CORPUS_SEED, i);
      const want = rowCitations(DEFAULT_CORPUS_SEED, i);
      expect(c.caseNumber).toBe(want.caseNumber);
      expect(c.courtName).toBe(want.court);
      expect(c.fullText).toContain(jurisdiction === "UK" ? `Neutral Citation Number: ${want.neutralCitation}` : `Sygn. akt ${want.caseNumber}`);
      if (jurisdiction === "UK") expect(c.extraction.neutral_citation_number).toBe(want.neutralCitation);
      else expect(c.extraction.neutral_citation_number).toBe(want.caseNumber);
    }
  });
});
