/**
 * The extractor measured on the real samples (tests/fixtures/citations) against the references their sources mark:
 * docs/citations.md holds the figures this test computes (stale doc = failure; `npm run citations:doc` rewrites
 * it), each row meets the targets or is a shortfall the doc explains, and every difference has a hand review.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { meetsTargets, qualityRow, reviewedGold, TARGET_PRECISION, TARGET_RECALL } from "@/lib/citations/quality";
import { DOC_PATH, measure, renderCitationsDoc, reviewNotes } from "@/server/cli/gen-citations-doc";

const rows = measure();
const row = (source: string, kind: string) => {
  const r = rows.find((x) => x.source === source && x.kind === kind);
  if (!r) throw new Error(`no row ${source} ${kind}`);
  return r;
};

/** Rows below the targets against the markup as published, each for the reasons reviewed in docs/citations.md (incomplete or wrong source markup). */
const SHORTFALLS = new Set(["JuDDGES XVII AmA 14/94 legislation", "Find Case Law [2025] EWCA Civ 673 legislation"]);

describe("citation extraction quality on the real samples", () => {
  it("measures every source with something marked: SAOS, JuDDGES and Find Case Law", () => {
    expect(rows.map((r) => `${r.source} ${r.kind}`)).toEqual([
      "SAOS 227221 case",
      "SAOS 227221 legislation",
      "JuDDGES XVII AmA 14/94 legislation",
      "Find Case Law [2025] EWCA Civ 673 case",
      "Find Case Law [2025] EWCA Civ 673 legislation",
    ]);
    for (const r of rows) expect(r.gold).toBeGreaterThan(0);
  });

  it(`meets precision ≥ ${TARGET_PRECISION} and recall ≥ ${TARGET_RECALL} on every row but the reviewed shortfalls`, () => {
    for (const r of rows) {
      const key = `${r.source} ${r.kind}`;
      if (SHORTFALLS.has(key)) expect(meetsTargets(r), `${key} now meets the targets: drop it from SHORTFALLS`).toBe(false);
      else expect({ key, precision: r.precision, recall: r.recall, met: meetsTargets(r) }).toEqual({ key, precision: r.precision, recall: r.recall, met: true });
    }
    expect(row("SAOS 227221", "legislation")).toMatchObject({ precision: 1, truePositives: 16 });
    expect(row("Find Case Law [2025] EWCA Civ 673", "case")).toMatchObject({ precision: 1, recall: 1, gold: 18 });
  });

  it("has a hand review for every difference from a source's markup, and none for what is no difference", () => {
    const notes = reviewNotes();
    for (const r of rows) {
      for (const id of [...r.falsePositives, ...r.misses]) expect(notes[r.source]?.[id], `${r.source}: ${id}`).toBeTruthy();
    }
    for (const [source, reviews] of Object.entries(notes)) {
      const differences = rows.filter((r) => r.source === source).flatMap((r) => [...r.falsePositives, ...r.misses]);
      for (const id of Object.keys(reviews)) expect(differences, `${source}: ${id} is reviewed but no longer a difference`).toContain(id);
    }
  });

  it("meets the targets on every row once the reviews correct the sources' markup (the extractor's faults still count)", () => {
    for (const r of rows) {
      const key = `${r.source} ${r.kind}`;
      expect({ key, precision: r.reviewed.precision, recall: r.reviewed.recall, met: meetsTargets(r.reviewed) }).toEqual({
        key,
        precision: r.reviewed.precision,
        recall: r.reviewed.recall,
        met: true,
      });
      // A review only moves the source's side: what the extractor found is the same set.
      expect(r.reviewed.found).toBe(r.found);
    }
  });

  it("corrects a source by its reviews: unmarked references added, source errors removed or replaced by what they read", () => {
    const gold = reviewedGold(["PL/kpa/10", "PL/kk/1", "PL/kp"], {
      "PL/kpa/10": { verdict: "source-error", note: "x", reads: "PL/kpa/105/§1" },
      "PL/kp": { verdict: "source-error", note: "x" },
      "PL/kk/2": { verdict: "unmarked", note: "x" },
      "PL/kk/3": { verdict: "extractor-miss", note: "x" },
    });
    expect(gold.sort()).toEqual(["PL/kk/1", "PL/kk/2", "PL/kpa/105/§1"]);
  });

  it("docs/citations.md holds these figures (run `npm run citations:doc` when this fails)", () => {
    const doc = readFileSync(DOC_PATH, "utf8");
    expect(doc).toBe(renderCitationsDoc(doc, rows));
  });

  it("computes precision and recall over leaves, UK provisions cut at the subsection", () => {
    const r = qualityRow({
      source: "x",
      kind: "legislation",
      gold: ["PL/kk/34", "PL/kk/34/§1a", "UK/ukpga/1998/42/s6/3", "PL/kk/1"],
      found: ["PL/kk/34/§1a", "UK/ukpga/1998/42/s6/3/b", "PL/kk/2"],
    });
    expect(r).toMatchObject({ gold: 3, found: 3, truePositives: 2, precision: 0.667, recall: 0.667, falsePositives: ["PL/kk/2"], misses: ["PL/kk/1"] });
  });
});
