import { describe, expect, it } from "vitest";
import { clusterLabels, clusterVectors, seededKmeansPlusPlus, similarityEdges } from "@/lib/analysis/kmeans";
import { buildTfidf } from "@/lib/analysis/tfidf";
import { Rng } from "@/lib/analysis/prng";

/**
 * Three planted groups of 10 vectors around three orthogonal directions in 6 dimensions (with seeded noise), and a
 * text per vector whose distinctive words name the group.
 */
function planted() {
  const rng = new Rng("kmeans-planted");
  const vectors: number[][] = [];
  const texts: string[][] = [];
  const groupWords = [
    ["murder", "knife", "stabbing"],
    ["burglary", "dwelling", "night"],
    ["fraud", "invoice", "bank"],
  ];
  for (let g = 0; g < 3; g++) {
    for (let i = 0; i < 10; i++) {
      const v = Array.from({ length: 6 }, () => 0.1 * rng.next());
      v[2 * g] += 1;
      v[2 * g + 1] += 0.5 + 0.2 * rng.next();
      vectors.push(v);
      texts.push([...groupWords[g], "appeal", "sentence", rng.pick(["court", "judge", "jury"])]);
    }
  }
  return { vectors, texts, groupWords };
}

describe("seeded k-means", () => {
  const { vectors, texts, groupWords } = planted();

  it("recovers the planted groups, largest first, with TF-IDF labels from the groups' own words", () => {
    const c = clusterVectors(vectors, { k: 3, seed: 42 });
    expect(c.clusters).toHaveLength(3);
    const groups = c.clusters.map((cl) => cl.members.map((i) => Math.floor(i / 10)));
    for (const g of groups) {
      expect(g).toHaveLength(10);
      expect(new Set(g).size).toBe(1);
    }
    for (const cl of c.clusters) expect(cl.cohesion).toBeGreaterThan(0.9);
    const labels = clusterLabels(c, buildTfidf(texts, { maxDfRatio: 1 }), 3);
    labels.forEach((l, id) => {
      const g = Math.floor(c.clusters[id].members[0] / 10);
      expect(l.terms.map((t) => t.term).sort()).toEqual([...groupWords[g]].sort());
    });
    const shown = clusterLabels(c, buildTfidf(texts, { maxDfRatio: 1 }), 3, (t) => t.toUpperCase());
    expect(shown[0].label).toBe(labels[0].label.toUpperCase());
  });

  it("is fixed by its seed and independent of the library's numbering; another seed gives the same shape", () => {
    const a = clusterVectors(vectors, { k: 3, seed: 7 });
    const b = clusterVectors(vectors, { k: 3, seed: 7 });
    expect(JSON.stringify(b.clusters)).toBe(JSON.stringify(a.clusters));
    expect(Array.from(b.assignments)).toEqual(Array.from(a.assignments));
    const c = clusterVectors(vectors, { k: 4, seed: 8 });
    expect(c.clusters.length).toBeLessThanOrEqual(4);
    expect(c.clusters.reduce((s, cl) => s + cl.members.length, 0)).toBe(vectors.length);
  });

  it("k-means++ picks distinct starting points and copes with fewer distinct points than k", () => {
    const centres = seededKmeansPlusPlus(vectors, 3, 1);
    expect(new Set(centres.map((c) => JSON.stringify(c))).size).toBe(3);
    const same = [
      [1, 0],
      [1, 0],
      [0, 1],
    ];
    const c = clusterVectors(same, { k: 3, seed: 1 });
    expect(c.clusters.reduce((s, cl) => s + cl.members.length, 0)).toBe(3);
    expect(clusterVectors([], { k: 3, seed: 1 }).clusters).toEqual([]);
  });

  it("lists similarity edges above a threshold, strongest first", () => {
    const edges = similarityEdges(vectors, 0.95, [0, 1, 10, 11]);
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) {
      expect(Math.floor(e.source / 10)).toBe(Math.floor(e.target / 10));
      expect(e.similarity).toBeGreaterThanOrEqual(0.95);
    }
    const sims = edges.map((e) => e.similarity);
    expect([...sims].sort((x, y) => y - x)).toEqual(sims);
  });
});
