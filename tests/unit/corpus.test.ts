import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BASE_FIELDS } from "@/lib/schema";
import { generateJudgment } from "@/supabase/seed/generate";
import { KNOWN_ANSWERS, knownAnswerId } from "@/supabase/seed/known-answers";

const checksum = (seed: number, n: number) => {
  const h = createHash("sha256");
  for (let i = 0; i < n; i++) h.update(JSON.stringify(generateJudgment(seed, i)));
  return h.digest("hex");
};

// Generating hundreds of long judgments takes seconds on a busy 2-core machine; this is a harness limit, not a speed check.
const SLOW = { timeout: 120_000 };

const SLICE = Array.from({ length: 600 }, (_, i) => generateJudgment(7, i));

describe("demo corpus generator", () => {
  it("is deterministic: two runs with the same seed give identical rows; another seed differs", SLOW, () => {
    expect(checksum(7, 50)).toBe(checksum(7, 50));
    expect(checksum(8, 50)).not.toBe(checksum(7, 50));
    // Any row can be generated alone and equals the same row of a longer run.
    expect(generateJudgment(7, 42)).toEqual(SLICE[42]);
  });

  it("follows the spec's data observations", SLOW, () => {
    const pl = SLICE.filter((r) => r.jurisdiction === "PL");
    const uk = SLICE.filter((r) => r.jurisdiction === "UK");
    expect(pl.length / SLICE.length).toBeGreaterThan(0.4);
    expect(pl.length / SLICE.length).toBeLessThan(0.6);
    for (const r of SLICE) {
      expect(r.decision_date >= "2003-01-01" && r.decision_date <= "2024-12-31").toBe(true);
      expect(r.outcome).toBeNull();
      expect(r.cited_legislation).toBeNull();
      // The title is built from the structured fields (lib/import/title.ts), never the opening boilerplate.
      expect(r.title).not.toMatch(/Sygn\. akt|WYROK|Neutral Citation Number/);
      expect(r.title).toMatch(r.jurisdiction === "PL" ? /^Wyrok Sądu Apelacyjnego (w|we) .+ z dnia \d{1,2} \p{L}+ \d{4} r\., II AKa \d+\/\d{2}$/u : /^R v .+ \[\d{4}\] EWCA Crim \d+$/);
      expect(r.full_text.replace(/\s+/g, " ").startsWith(r.summary)).toBe(true);
    }
    for (const r of uk) {
      expect([r.case_type, r.court_level, r.court_name]).toEqual(["Civil", "Crown Court", "Court of Appeal (Criminal Division)"]);
      expect(r.keywords).toBeNull();
      expect(r.legal_topics).toBeNull();
      expect(r.case_number).toMatch(/^\d{9} [A-C]\d$/);
      expect(r.full_text).toMatch(/^Neutral Citation Number: \[\d{4}\] EWCA Crim \d+/);
      for (const h of ["Introduction", "The facts", "Grounds of appeal", "Discussion", "Conclusion"]) expect(r.full_text).toContain(`\n\n${h}\n\n`);
    }
    for (const r of pl) {
      expect(r.court_name).toMatch(/^Sąd Apelacyjny (w|we) /);
      expect(r.case_number).toMatch(/^II AKa \d+\/\d{2}$/);
      expect(r.keywords?.length).toBeGreaterThan(0);
      expect(r.legal_topics?.length).toBeGreaterThan(0);
      expect(r.judges).toHaveLength(3);
      for (const h of ["WYROK\nW IMIENIU RZECZYPOSPOLITEJ POLSKIEJ", "UZASADNIENIE", "Sąd Apelacyjny zważył, co następuje:"]) expect(r.full_text).toContain(h);
      expect(r.full_text).toMatch(/art\. \d+[a-z]? (§ \d+ )?(pkt \d+ )?k\.k\.|ustawy o przeciwdziałaniu narkomanii/);
    }
    const courts = new Set(pl.map((r) => r.court_name));
    expect(courts.size).toBe(11);
    const statuses = new Set(SLICE.map((r) => r.base_extraction_status));
    expect(statuses).toEqual(new Set(["completed", "pending", "failed"]));
    expect(SLICE.filter((r) => r.base_extraction_status === "completed").length / SLICE.length).toBeGreaterThan(0.85);
  });

  it("base values agree with the text and their columns", SLOW, () => {
    for (const r of SLICE.filter((x) => x.base_extraction_status === "completed")) {
      for (const f of BASE_FIELDS) {
        const v = r[f.column as `base_${string}`];
        if (f.enumValues && v !== null) {
          const allowed = f.enumValues.map((o) => o.value);
          for (const item of Array.isArray(v) ? v : [v]) expect(allowed).toContain(item);
        }
      }
      // An offence named in the convictions appears in the text (UK by name, PL by its article).
      const offences = r.base_convict_offences as string[] | null;
      for (const o of offences ?? []) {
        const needle = r.jurisdiction === "UK" ? o : (/\((art\. .*)\)$/.exec(o)?.[1] ?? o);
        expect(r.full_text).toContain(needle);
      }
      if (r.base_case_name) expect(r.base_case_name).not.toMatch(/WYROK|Neutral Citation/);
      if (r.base_neutral_citation_number) expect(r.full_text).toContain(r.base_neutral_citation_number as string);
    }
    for (const r of SLICE.filter((x) => x.base_extraction_status !== "completed")) {
      expect(r.base_offender_gender).toBeNull();
      expect(r.base_raw_extraction).toEqual({});
    }
    expect(SLICE.filter((r) => r.base_extraction_status === "failed").every((r) => r.base_extraction_error)).toBe(true);
  });

  it("full-text lengths have a median near 20,000 characters and a long tail", SLOW, () => {
    const lengths = Array.from({ length: 1000 }, (_, i) => generateJudgment(11, i).full_text.length).sort((a, b) => a - b);
    const median = lengths[500];
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    expect(median).toBeGreaterThan(17_000);
    expect(median).toBeLessThan(23_000);
    expect(mean).toBeGreaterThan(24_000);
    expect(mean).toBeLessThan(33_000);
    expect(lengths.at(-1)).toBeGreaterThan(150_000);
  });

  it("plants every known answer with its query words verbatim, and nowhere else in the slice", SLOW, () => {
    for (const k of KNOWN_ANSWERS) {
      const row = SLICE[k.index];
      expect(row.id).toBe(knownAnswerId(7, k.key));
      expect(row.jurisdiction).toBe(k.jurisdiction);
      expect(row.base_extraction_status).toBe("completed");
      // Every query word is a whole token of the text (search engines match tokens, case-insensitively).
      const tokens = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
      const words = k.query.toLowerCase().split(" ");
      const own = tokens(row.full_text);
      for (const w of words) expect([k.key, w, own.has(w)]).toEqual([k.key, w, true]);
      // At least one query word is unique to the planted judgment, and no other judgment holds all of them.
      const all = SLICE.map((r) => ({ id: r.id, t: tokens(r.full_text) }));
      expect([k.key, words.some((w) => all.filter((r) => r.t.has(w)).length === 1)]).toEqual([k.key, true]);
      expect(all.filter((r) => words.every((w) => r.t.has(w))).map((r) => r.id)).toEqual([row.id]);
    }
  });
});
