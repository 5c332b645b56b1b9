/**
 * The known answers of the judge fingerprint and reasoning lines planted in the demo corpus
 * (supabase/seed/planted-lines.ts): where they are, what they say, and that planting is additive (no other judgment
 * and no search known answer is touched). The HTTP side (profile, discovery) is in tests/api/judge-fingerprint.test.ts.
 */
import { describe, expect, it } from "vitest";
import { scoreStyles } from "@/lib/analysis/reasoning-patterns";
import { generateJudgment } from "@/supabase/seed/generate";
import { KNOWN_ANSWERS } from "@/supabase/seed/known-answers";
import { JUDGE_INDEXES, LINE_INDEXES, PLANTED_JUDGE, PLANTED_LINE } from "@/supabase/seed/planted-lines";

const SEED = 7;
const SLOW = { timeout: 120_000 };

describe("planted analysis answers", () => {
  it("sit at their own indexes below 600, apart from each other and from the search known answers", () => {
    const known = new Set(KNOWN_ANSWERS.map((k) => k.index));
    for (const i of [...JUDGE_INDEXES, ...LINE_INDEXES]) {
      expect(i).toBeLessThan(600);
      expect(known.has(i)).toBe(false);
    }
    expect(JUDGE_INDEXES.filter((i) => LINE_INDEXES.includes(i))).toEqual([]);
  });

  it("the planted judge presides over every Polish judgment at her indexes, and reasons teleologically", SLOW, () => {
    const rows = JUDGE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.jurisdiction === "PL");
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const r of rows) {
      expect(r.judges[0]).toMatchObject({ name: PLANTED_JUDGE.name });
      expect(r.judges).toHaveLength(3);
      expect(r.full_text).toContain(`SSA ${PLANTED_JUDGE.name}`);
      // The opening (title, summary) is still the opening of the text.
      expect(r.full_text.replace(/\s+/g, " ").startsWith(r.summary)).toBe(true);
      if (r.base_appeal_court_judges_names) expect(r.base_appeal_court_judges_names).toContain(PLANTED_JUDGE.name);
    }
    const s = scoreStyles(rows.map((r) => ({ document_id: r.id, text: r.full_text })));
    expect(s.styles.teleological).toBe(100);
    expect(Math.max(s.styles.textual, s.styles.deductive, s.styles.analogical, s.styles.policy)).toBeLessThan(100);
  });

  it("the planted line's judgments carry its keywords, its question in the header and a reasons paragraph", SLOW, () => {
    const rows = LINE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.jurisdiction === "PL");
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const r of rows) {
      for (const k of PLANTED_LINE.keywords) expect(r.keywords).toContain(k);
      expect(r.legal_topics).toContain(PLANTED_LINE.legalTopic);
      expect(r.summary).toContain("kryptowaluty bitcoin");
      expect(r.full_text).toContain("art. 115 § 9 k.k.");
      expect(r.full_text.replace(/\s+/g, " ").startsWith(r.summary)).toBe(true);
    }
  });

  it("is additive: no other judgment of the first 300 names the judge or carries the line", SLOW, () => {
    const planted = new Set([...JUDGE_INDEXES, ...LINE_INDEXES]);
    for (let i = 0; i < 300; i++) {
      if (planted.has(i)) continue;
      const r = generateJudgment(SEED, i);
      expect([i, r.judges.some((j) => j.name === PLANTED_JUDGE.name)]).toEqual([i, false]);
      expect([i, r.full_text.includes("kryptowalut")]).toEqual([i, false]);
    }
  });
});
