import { describe, expect, it } from "vitest";
import { detectLanguage, extractRules, parseDate, plArticles, RULES_FIELDS, RULES_MODEL, titleCase } from "@/lib/extraction/rules";
import { comparable, score, truthCase } from "../../bench/lib/extraction-truth";
import { FIXTURES } from "../fixtures/extraction/judgments";

describe("rules-v1 on written PL and UK judgment excerpts", () => {
  it.each(FIXTURES.map((f) => [f.id, f] as const))("%s: every field as the truth says, except the documented misses", (_id, f) => {
    const got = extractRules(f.text);
    expect(got.language).toBe(f.id.startsWith("pl-") ? "pl" : "en");
    const { language: _l, ...values } = got;
    expect(values).toEqual({ ...f.truth, ...f.misses });
  });

  it("labels itself and names the fields it can fill", () => {
    expect(RULES_MODEL).toBe("rules-v1");
    expect(Object.keys(extractRules(FIXTURES[0].text)).filter((k) => k !== "language").sort()).toEqual([...RULES_FIELDS].sort());
  });

  it("invents nothing on a text that is not a judgment", () => {
    const r = extractRules("The weather in Kraków was mild on Tuesday. Nobody appealed anything, and no court sat.");
    expect(r).toMatchObject({ case_number: null, neutral_citation: null, court: null, judges: [], decision_date: null, hearing_date: null, appellant: null, offences: [], sentences: [], outcome: null });
  });
});

describe("helpers", () => {
  it.each([
    ["Dnia 12 września 2021 r.", "2021-09-12"],
    ["z dnia 1 lutego 2005 r.", "2005-02-01"],
    ["22nd November 2019", "2019-11-22"],
    ["14/03/2023", "2023-03-14"],
    ["31/02/2023", null],
    ["no date here", null],
  ])("parseDate(%s) = %s", (s, want) => expect(parseDate(s)).toBe(want));

  it("reads criminal-code articles, skipping rules that are not offences and other codes", () => {
    expect(plArticles("z art. 13 § 1 k.k. w zw. z art. 148 § 2 pkt 3 k.k. w zw. z art. 64 § 1 k.k.")).toEqual(["art. 13 § 1 k.k.", "art. 148 § 2 pkt 3 k.k."]);
    expect(plArticles("obrazę art. 7 k.p.k. i art. 410 k.p.k.")).toEqual([]);
    expect(plArticles("art. 190a § 1 k.k.")).toEqual(["art. 190a § 1 k.k."]);
  });

  it("title-cases English judges' names and detects the language", () => {
    expect(titleCase("HIS HONOUR JUDGE KESWICK KC")).toBe("His Honour Judge Keswick KC");
    expect(titleCase("LORD BURNETT OF MALDON")).toBe("Lord Burnett of Maldon");
    expect(detectLanguage(FIXTURES[0].text)).toBe("pl");
    expect(detectLanguage(FIXTURES[3].text)).toBe("en");
  });
});

describe("against the demo corpus's known values (the generator's own plan)", () => {
  // A floor, not a timing: the full table over the whole corpus is in docs/extraction.md (bench/extraction.ts).
  it("finds the known values of the first 150 judgments with precision and recall of at least 0.9 per field", () => {
    const cases = Array.from({ length: 150 }, (_, i) => {
      const t = truthCase(i);
      return { jurisdiction: t.jurisdiction, truth: t.truth, got: comparable(extractRules(t.fullText)) };
    });
    const table = score(cases);
    expect(table.length).toBeGreaterThanOrEqual(18);
    for (const row of table) {
      expect([row.field, row.jurisdiction, row.precision]).toEqual([row.field, row.jurisdiction, expect.any(Number)]);
      expect(row.precision ?? 0, `${row.field} ${row.jurisdiction} precision`).toBeGreaterThanOrEqual(0.9);
      expect(row.recall ?? 0, `${row.field} ${row.jurisdiction} recall`).toBeGreaterThanOrEqual(0.9);
    }
  });
});
