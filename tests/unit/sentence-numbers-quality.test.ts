import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SENTENCE_NUMBER_FIELDS } from "@/lib/extraction/sentence-numbers";
import { demoQuality, DOC_PATH, labelledItems, labelledQuality, renderTables, withTables, type FieldQuality } from "../../server/cli/gen-sentence-quality-doc";

const labelled = labelledQuality();
const demo = demoQuality();

const floor = (rows: FieldQuality[], p: number, r: number) => {
  const low = rows.filter((q) => (q.precision !== null && q.precision < p) || (q.recall !== null && q.recall < r));
  expect(low.map((q) => `${q.set} ${q.field} p=${q.precision} r=${q.recall}`)).toEqual([]);
};

describe("the hand-labelled sentence passages", () => {
  const items = labelledItems();

  it("are at least 40, each with an id, a provenance and only known field names", () => {
    expect(items.length).toBeGreaterThanOrEqual(40);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const it of items) {
      expect(it.provenance.length, it.id).toBeGreaterThan(20);
      expect(["pl", "en"]).toContain(it.language);
      for (const k of Object.keys(it.expected)) expect(SENTENCE_NUMBER_FIELDS as readonly string[], `${it.id}: ${k}`).toContain(k);
    }
    expect(items.filter((i) => i.provenance.startsWith("SAOS")).length).toBeGreaterThanOrEqual(5);
    expect(items.filter((i) => i.language === "en").length).toBeGreaterThanOrEqual(15);
  });

  it("are read with precision and recall of at least 0.9 per field (the set the rules were built on)", () => {
    floor(labelled.filter((q) => q.set === "labelled"), 0.9, 0.9);
  });

  it("and of at least 0.6 per field on the held-out passages, whose custody months are all right", () => {
    const held = labelled.filter((q) => q.set === "held out");
    floor(held, 0.6, 0.6);
    expect(held.find((q) => q.field === "sentence_custody_months")).toMatchObject({ precision: 1, recall: 1 });
  });
});

describe("the demo corpus's planted truth", () => {
  it("scores first-instance custody, kind and suspension in both jurisdictions, and after appeal", () => {
    for (const set of ["demo PL", "demo UK"])
      for (const field of ["sentence_kind", "sentence_custody_months", "sentence_suspended", "sentence_custody_months_after_appeal", "sentence_change_months"])
        expect(demo.find((q) => q.set === set && q.field === field), `${set} ${field}`).toBeDefined();
  });

  it("is read with precision and recall of at least 0.95 per field", () => {
    floor(demo, 0.95, 0.95);
  });
});

describe("docs/extraction.md", () => {
  it("holds the tables server/cli/gen-sentence-quality-doc.ts generates (run `npm run sentences:doc` when this fails)", () => {
    const doc = readFileSync(DOC_PATH, "utf8");
    expect(doc).toBe(withTables(doc, renderTables(labelled, demo)));
  });
});
