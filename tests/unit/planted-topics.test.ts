/**
 * The planted topics of the demo corpus (supabase/seed/planted-topics.ts, known answers): which rows carry
 * them, that known-answer judgments and the spec's data shape are untouched (UK rows keep keywords null), and the
 * planted rates. Their discovery by a topic run is checked over HTTP (tests/api/topics.test.ts) and on the full
 * corpus by bench/analytics.ts.
 */
import { describe, expect, it } from "vitest";
import { generateJudgment } from "@/supabase/seed/generate";
import { KNOWN_ANSWERS } from "@/supabase/seed/known-answers";
import { PLANTED_TOPICS, plantedTopicOf } from "@/supabase/seed/planted-topics";

const SEED = 7;
const rows = Array.from({ length: 400 }, (_, i) => generateJudgment(SEED, i));
const plantedIn = (kw: readonly string[] | null | undefined) => PLANTED_TOPICS.find((t) => (kw ?? []).some((k) => t.phrases.includes(k)));

describe("planted topics in the demo corpus", () => {
  it("planted rows carry five of their topic's phrases in the extracted keywords (and PL keywords); UK keywords stay null", () => {
    let planted = 0;
    for (const [i, r] of rows.entries()) {
      const topic = plantedTopicOf({ seed: SEED, index: i, jurisdiction: r.jurisdiction, decisionDate: new Date(`${r.decision_date}T00:00:00Z`), known: KNOWN_ANSWERS.some((k) => k.index === i) });
      const raw = r.base_raw_extraction.keywords as string[] | null;
      if (!topic) {
        expect(plantedIn(raw), `row ${i}`).toBeUndefined();
        continue;
      }
      planted++;
      expect(topic.jurisdiction).toBe(r.jurisdiction);
      // The extractor may miss the whole keywords field (MISS_RATE), as on any row.
      if (raw) expect(raw.filter((k) => topic.phrases.includes(k))).toHaveLength(5);
      if (r.jurisdiction === "PL") expect((r.keywords ?? []).filter((k) => topic.phrases.includes(k))).toHaveLength(5);
      else expect(r.keywords).toBeNull();
    }
    expect(planted).toBeGreaterThan(20);
  });

  it("never plants a known-answer judgment", () => {
    for (const k of KNOWN_ANSWERS) {
      const r = generateJudgment(SEED, k.index);
      expect(plantedIn(r.base_raw_extraction.keywords as string[] | null), k.key).toBeUndefined();
      expect(plantedIn(r.keywords), k.key).toBeUndefined();
    }
  });

  it("rates: the grandparent scam flat on PL rows; prison drones rising over the years on UK rows", () => {
    const at = (jurisdiction: "PL" | "UK", year: number, n = 4000) => {
      let hit = 0;
      for (let i = 0; i < n; i++) if (plantedTopicOf({ seed: 1, index: 100_000 + i, jurisdiction, decisionDate: new Date(Date.UTC(year, 5, 1)), known: false })) hit++;
      return hit / n;
    };
    expect(at("PL", 2005)).toBeCloseTo(0.12, 1);
    expect(at("PL", 2023)).toBeCloseTo(0.12, 1);
    expect(at("UK", 2003)).toBeCloseTo(0.04, 1);
    expect(at("UK", 2024)).toBeCloseTo(0.2, 1);
    expect(plantedTopicOf({ seed: 1, index: 5, jurisdiction: "PL", decisionDate: new Date(), known: true })).toBeUndefined();
  });
});
