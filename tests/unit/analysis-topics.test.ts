import { readableLabel } from "@/lib/analysis/labels";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { relativeSlope, splitPeriods, trendOf } from "@/lib/analysis/periods";
import { seededSample } from "@/lib/analysis/sample";
import { analyzeTopics, type TopicRun } from "@/lib/analysis/topics";
import type { AnalysisDocument } from "@/lib/analysis/document";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";
import { Rng, uuidFromKey } from "@/lib/analysis/prng";

/**
 * A synthetic corpus with two planted topics and distinct vocabularies: drug trafficking (Polish), the same number of
 * judgments every year, and bank fraud (English), which grows from 2 to 12 judgments a year over 2010-2015. Five of
 * ten topic words per judgment, so no word is in more than half the documents (the TF-IDF max-df rule).
 */
const DRUGS = ["marihuana", "amfetamina", "narkotyki", "substancja", "psychotropowa", "dealer", "handel", "porcje", "waga", "plantacja"];
const FRAUD = ["fraud", "invoice", "bank", "transfer", "account", "forgery", "cheque", "dishonest", "victims", "online"];

function plantedCorpus(): AnalysisDocument[] {
  const rng = new Rng("planted-topics");
  const docs: AnalysisDocument[] = [];
  const add = (topic: "drugs" | "fraud", year: number, i: number) => {
    const words = rng.sample(topic === "drugs" ? DRUGS : FRAUD, 5);
    const day = rng.int(1, 28);
    const month = rng.int(1, 12);
    docs.push({
      id: uuidFromKey(`${topic}:${year}:${i}`),
      case_number: `${topic.toUpperCase()} ${year}/${i}`,
      title: `${words.slice(0, 2).join(" ")}`,
      summary: words.slice(2).join(" "),
      decision_date: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    });
  };
  for (let y = 0; y < 6; y++) {
    for (let i = 0; i < 10; i++) add("drugs", 2010 + y, i);
    for (let i = 0; i < 2 + 2 * y; i++) add("fraud", 2010 + y, i);
  }
  return docs;
}

const params = { numTopics: 2, numKeywords: 5, timePeriods: 6, seed: 42 };

describe("analyzeTopics: known answer on a planted corpus", () => {
  const docs = plantedCorpus();
  const run = analyzeTopics(docs, params);

  it("finds both planted topics, each with only its own vocabulary", () => {
    expect(run.topics).toHaveLength(2);
    const drugs = run.topics.find((t) => DRUGS.includes(t.keywords[0].term));
    const fraud = run.topics.find((t) => FRAUD.includes(t.keywords[0].term));
    expect(drugs && fraud).toBeTruthy();
    expect(drugs!.keywords.every((k) => DRUGS.includes(k.term))).toBe(true);
    expect(fraud!.keywords.every((k) => FRAUD.includes(k.term))).toBe(true);
    expect(drugs!.size).toBe(60);
    expect(fraud!.size).toBe(42);
    // Largest first, labels are the top keywords.
    expect(run.topics[0]).toBe(drugs);
    // The label is the readable form of the ranked keywords (lib/analysis/labels.ts), never an id.
    expect(drugs!.label).toBe(readableLabel(drugs!.keywords.map((k) => k.term)));
    expect(drugs!.label.toLowerCase()).toContain(drugs!.keywords[0].term.toLowerCase());
  });

  it("labels the growing topic emerging and the other declining (its share falls)", () => {
    const fraud = run.topics.find((t) => FRAUD.includes(t.keywords[0].term))!;
    const drugs = run.topics.find((t) => DRUGS.includes(t.keywords[0].term))!;
    expect(fraud.trend).toBe("emerging");
    expect(fraud.slope).toBeGreaterThan(0.1);
    expect(drugs.trend).toBe("declining");
    const w = fraud.weights_by_period.map((p) => p.weight);
    expect(w[w.length - 1]).toBeGreaterThan(w[0]);
    expect(run.periods).toHaveLength(6);
    expect(run.periods.reduce((s, p) => s + p.documents, 0)).toBe(docs.length);
  });

  it("reports coherence, sample judgments of the topic, params and corpus size", () => {
    for (const t of run.topics) {
      expect(t.coherence).toBeGreaterThan(-1);
      expect(t.coherence).toBeLessThanOrEqual(1);
      expect(t.sample_documents).toHaveLength(5);
      const vocab = DRUGS.includes(t.keywords[0].term) ? "DRUGS" : "FRAUD";
      for (const d of t.sample_documents) expect(d.case_number?.startsWith(vocab)).toBe(true);
    }
    expect(run.params).toEqual({ sample_size: null, num_topics: 2, num_keywords: 5, time_periods: 6, seed: 42 });
    expect(run.corpus_size).toBe(docs.length);
    expect(run.model.converged).toBe(true);
  });
});

function shape(run: TopicRun): unknown {
  return {
    keys: Object.keys(run),
    topics: run.topics.map((t) => ({
      keys: Object.keys(t),
      keywords: t.keywords.length,
      periods: t.weights_by_period.length,
      samples: t.sample_documents.length,
    })),
    periods: run.periods.length,
  };
}

describe("analyzeTopics: edge cases", () => {
  it("documents without any surviving term count in their period but do not dilute its weights", () => {
    const docs = plantedCorpus();
    const empty = docs.map((d, i) => ({ ...d, id: `zz-empty-${i}`, case_number: null, title: "the", summary: "of" }));
    const a = analyzeTopics(docs, params);
    const b = analyzeTopics([...docs, ...empty.slice(0, 30)], params);
    expect(b.periods.reduce((s, p) => s + p.documents, 0)).toBe(docs.length + 30);
    expect(b.topics.map((t) => t.size)).toEqual(a.topics.map((t) => t.size));
    expect(b.topics.map((t) => t.trend)).toEqual(a.topics.map((t) => t.trend));
  });

  it("returns no topics for an empty input and refuses nonsense parameters", () => {
    const run = analyzeTopics([], params);
    expect(run.topics).toEqual([]);
    expect(run.corpus_size).toBe(0);
    expect(() => analyzeTopics(plantedCorpus(), { ...params, numTopics: 0 })).toThrow(RangeError);
    expect(() => analyzeTopics(plantedCorpus(), { ...params, timePeriods: 2.5 })).toThrow(RangeError);
  });
});

describe("analyzeTopics: determinism on the demo corpus", () => {
  const docs = Array.from({ length: 80 }, (_, i) => generateJudgment(DEFAULT_CORPUS_SEED, i));
  const p = { numTopics: 4, numKeywords: 6, timePeriods: 4, seed: 42, sampleSize: 60 };

  it("same documents and seed → byte-identical JSON, whatever the input order", () => {
    const a = JSON.stringify(analyzeTopics(docs, p));
    const b = JSON.stringify(analyzeTopics([...docs].reverse(), p));
    expect(b).toBe(a);
    const run = JSON.parse(a) as TopicRun;
    expect(run.topics).toHaveLength(4);
    expect(run.corpus_size).toBe(80);
    expect(run.model.documents).toBe(60);
  });

  // The period bounds follow the sampled dates, so only their number is part of the shape.
  it("another seed → same shape (another sample, another initialisation)", () => {
    const a = analyzeTopics(docs, p);
    const b = analyzeTopics(docs, { ...p, seed: 43 });
    expect(shape(b)).toEqual(shape(a));
    expect(JSON.stringify(b)).not.toBe(JSON.stringify(a));
  });

  it("never returns demo boilerplate or names as keywords", () => {
    const run = analyzeTopics(docs, { ...p, sampleSize: undefined });
    const terms = run.topics.flatMap((t) => t.keywords.map((k) => k.term));
    for (const bad of ["sygn", "wyrok", "appellant", "respondent", "ewca", "mrs", "lord"]) expect(terms).not.toContain(bad);
    const judgeWords = new Set(
      docs.flatMap((d) => d.judges.flatMap((j) => j.name.toLowerCase().split(/\s+/))),
    );
    expect(terms.filter((t) => judgeWords.has(t))).toEqual([]);
  });
});

describe("seededSample", () => {
  const items = Array.from({ length: 50 }, (_, i) => ({ id: uuidFromKey(`s${i}`) }));

  it("orders like the aggregate's SQL: md5(id || ':' || seed), then id, first n", () => {
    const expected = [...items]
      .map((x) => ({ x, k: createHash("md5").update(`${x.id}:7`).digest("hex") }))
      .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .slice(0, 10)
      .map((e) => e.x.id);
    expect(seededSample(items, 10, 7).map((x) => x.id)).toEqual(expected);
  });

  it("is independent of input order, takes everything when size ≥ count, and refuses a fractional seed", () => {
    expect(seededSample([...items].reverse(), 10, 7)).toEqual(seededSample(items, 10, 7));
    expect(seededSample(items, 500, 7)).toHaveLength(50);
    expect(seededSample(items, 10, -3)).not.toEqual(seededSample(items, 10, 7));
    expect(() => seededSample(items, 10, 1.5)).toThrow(RangeError);
  });
});

describe("periods and trend", () => {
  it("splits the date range into equal spans and counts documents per period", () => {
    const { periods, index } = splitPeriods(["2020-01-01", "2020-12-31", "2020-06-30", undefined], 2);
    expect(periods.map((p) => p.period)).toEqual(["2020-01-01/2020-07-01", "2020-07-02/2020-12-31"]);
    expect(index).toEqual([0, 1, 0, -1]);
    expect(periods.map((p) => p.documents)).toEqual([2, 1]);
  });

  it("uses the slope relative to the mean, over periods that have documents", () => {
    expect(relativeSlope([1, 2, 3], [5, 5, 5])).toBeCloseTo(0.5);
    expect(relativeSlope([3, 2, 1], [5, 5, 5])).toBeCloseTo(-0.5);
    expect(relativeSlope([1, 0, 1], [5, 0, 5])).toBe(0);
    expect(relativeSlope([1], [5])).toBe(0);
    expect([trendOf(0.11), trendOf(0.1), trendOf(-0.1), trendOf(-0.11)]).toEqual(["emerging", "stable", "stable", "declining"]);
  });
});
