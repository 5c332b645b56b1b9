import { describe, expect, it } from "vitest";
import { cohortBibtex, cohortCslJson, compareCsv, csvCell, parseCohortParam, rerunHref, sideRequest } from "@/lib/client/cohorts-api";
import { encodeFilter } from "@/lib/client/filter-codec";

describe("cohort page helpers", () => {
  it("reads a side from the URL: an encoded filter, a collection, or nothing readable", () => {
    const f = encodeFilter({ jurisdiction: ["PL"] });
    expect(sideRequest(parseCohortParam(f)!)).toEqual({ filters: { jurisdiction: ["PL"] } });
    const id = "3f2b8c1e-0a4d-4c6e-9b1a-2d3e4f5a6b7c";
    expect(sideRequest(parseCohortParam(`collection:${id.toUpperCase()}`)!)).toEqual({ collection_id: id });
    expect(parseCohortParam("collection:nope")).toEqual({ kind: "invalid" });
    expect(parseCohortParam("%%%")).toEqual({ kind: "invalid" });
    expect(sideRequest(parseCohortParam("")!)).toEqual({ filters: {} });
    expect(parseCohortParam(null)).toBeNull();
  });

  it("writes CSV cells safely: quotes, and formulas neutralised while numbers stay numbers", () => {
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell(-0.25)).toBe("-0.25");
    expect(csvCell(null)).toBe("");
    const csv = compareCsv(
      {
        a: { size: 10 },
        b: { size: 9 },
        confidence: 0.95,
        seed: 1,
        bootstrap_resamples: 1000,
        fields: [
          { field: "jurisdiction", kind: "categorical", multi: false, a_covered: 10, b_covered: 9, values: [{ value: "PL", a_count: 6, b_count: 3, a_share: 0.6, b_share: 1 / 3, diff: 0.2, ci_low: -0.1, ci_high: 0.5 }] },
          { field: "num_victims", kind: "numeric", a: { n: 2, median: 1, q1: 1, q3: 1, min: 1, max: 1 }, b: { n: 0, median: null, q1: null, q3: null, min: null, max: null }, diff: null, ci_low: null, ci_high: null, bins: [] },
        ],
      },
      (field, value) => (value === null ? field.toUpperCase() : `v:${value}`),
    );
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[1]).toBe(`JURISDICTION,v:PL,6,10,0.6,3,9,${1 / 3},0.2,-0.1,0.5,share difference (Newcombe)`);
    expect(lines[2]).toBe("NUM_VICTIMS,median,2,10,1,0,9,,,,,median difference (bootstrap)");
  });

  it("builds BibTeX and CSL-JSON entries of a cited cohort, and the search-again link", () => {
    const c = { id: "Ab3dEf9hJk2m", url: "https://example.org/c/Ab3dEf9hJk2m", created_at: "2026-12-08T10:00:00Z", corpus_version: "gen-2-s1-n10", members_count: 42 };
    const bib = cohortBibtex(c, "Cohort of 42 judgments {x}", "Judgment Search");
    expect(bib).toContain("@misc{cohort_Ab3dEf9hJk2m,");
    expect(bib).toContain("title = {Cohort of 42 judgments \\{x\\}}");
    expect(bib).toContain("howpublished = {\\url{https://example.org/c/Ab3dEf9hJk2m}}");
    expect(bib).toContain("year = {2026}");
    const csl = JSON.parse(cohortCslJson(c, "T", "P")) as Array<Record<string, unknown>>;
    expect(csl[0]).toMatchObject({ id: "cohort-Ab3dEf9hJk2m", type: "dataset", URL: c.url, version: "gen-2-s1-n10", issued: { "date-parts": [[2026, 12, 8]] } });
    expect(rerunHref({ query: "kradzież z włamaniem", mode: "hybrid" })).toBe("/search?q=kradzie%C5%BC+z+w%C5%82amaniem&mode=hybrid");
    expect(rerunHref({ query: "x", mode: "autocomplete" })).toBe("/search?q=x");
  });
});
