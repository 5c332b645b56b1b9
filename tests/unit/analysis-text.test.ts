import { describe, expect, it } from "vitest";
import boilerplate from "@/lib/analysis/data/boilerplate.json";
import { analysisText, nameTerms } from "@/lib/analysis/document";
import { ANALYSIS_STOPWORDS, analysisTokens, BOILERPLATE_TERMS, LANGUAGE_STOPWORDS } from "@/lib/analysis/text";
import { buildTfidf, sparseDot } from "@/lib/analysis/tfidf";

describe("analysis tokens", () => {
  it("folds accents and case, drops stop words, short words and numbers", () => {
    expect(analysisTokens("Zabójstwo ze szczególnym okrucieństwem, art. 148 § 2 k.k., 2019 r.")).toEqual([
      "zabojstwo",
      "szczegolnym",
      "okrucienstwem",
    ]);
    expect(analysisTokens("The appellant was convicted of MURDER after a trial")).toEqual(["convicted", "murder", "trial"]);
  });

  it("uses the stopword package's Polish and English lists, folded", () => {
    for (const w of ["poniewaz", "wszystkich", "because", "through"]) expect(LANGUAGE_STOPWORDS.has(w)).toBe(true);
  });

  it("removes the document's own names (judges, counsel, parties, courts)", () => {
    const doc = {
      id: "x",
      title: "Sąd Apelacyjny w Lublinie, przewodniczący SSA Robert Makowski, rozbój",
      court_name: "Sąd Apelacyjny w Lublinie",
      judges: [{ name: "Robert Makowski", role: "Przewodniczący" }],
    };
    const names = nameTerms(doc);
    expect([...names].sort()).toEqual(["apelacyjny", "lublinie", "makowski", "robert", "sad", "w"]);
    expect(analysisTokens(analysisText(doc), undefined, names)).toEqual(["rozboj"]);
  });
});

describe("measured boilerplate", () => {
  it("lists only terms above the stated document-frequency threshold, all of them ignored", () => {
    expect(boilerplate.threshold).toBeGreaterThan(0);
    expect(boilerplate.terms.length).toBeGreaterThan(20);
    for (const t of boilerplate.terms) {
      expect(Math.max(t.df_pl, t.df_en), t.term).toBeGreaterThan(boilerplate.threshold);
      expect(BOILERPLATE_TERMS.has(t.term) && ANALYSIS_STOPWORDS.has(t.term)).toBe(true);
    }
  });
});

describe("TF-IDF", () => {
  const docs = [
    ["murder", "knife", "murder"],
    ["murder", "gun"],
    ["fraud", "bank"],
    ["fraud", "invoice", "bank"],
  ];

  it("keeps terms by document frequency, in code-point order, rows L2-normalised", () => {
    const m = buildTfidf(docs, { minDf: 2, maxDfRatio: 1 });
    expect(m.terms).toEqual(["bank", "fraud", "murder"]);
    expect(Array.from(m.df)).toEqual([2, 2, 2]);
    for (const r of m.rows) {
      const norm = Math.sqrt(r.values.reduce((s, v) => s + v * v, 0));
      expect(norm).toBeCloseTo(1);
    }
    expect(sparseDot(m.rows[2], m.rows[3])).toBeCloseTo(1);
    expect(sparseDot(m.rows[0], m.rows[2])).toBe(0);
  });

  it("drops terms in more than maxDfRatio of the documents and caps the vocabulary by frequency", () => {
    const m = buildTfidf([...docs, ["murder", "fraud"]], { minDf: 1, maxDfRatio: 0.5 });
    expect(m.terms).not.toContain("murder");
    expect(m.terms).not.toContain("fraud");
    const capped = buildTfidf(docs, { minDf: 1, maxDfRatio: 1, maxFeatures: 2 });
    expect(capped.terms).toEqual(["bank", "fraud"]);
  });

  it("does not depend on document order except for row order", () => {
    const a = buildTfidf(docs, { minDf: 1, maxDfRatio: 1 });
    const b = buildTfidf([...docs].reverse(), { minDf: 1, maxDfRatio: 1 });
    expect(b.terms).toEqual(a.terms);
    expect(Array.from(b.rows[0].values)).toEqual(Array.from(a.rows[3].values));
  });
});
