import { describe, expect, it } from "vitest";
import { cohortBibtex, cohortCslJson, compareExportTarget, parseCohortParam, rerunHref, sideRequest } from "@/lib/client/cohorts-api";
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

  it("asks the export module for the same comparison, with the chosen format and header mode", () => {
    const body = { a: { filters: { jurisdiction: ["PL"] } }, b: { collection_id: "3f2b8c1e-0a4d-4c6e-9b1a-2d3e4f5a6b7c" }, fields: ["jurisdiction"] };
    expect(compareExportTarget(body, "xlsx", "codes")).toEqual({ url: "/api/cohorts/compare/export", json: { ...body, format: "xlsx", headers: "codes" } });
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
