import { describe, expect, it } from "vitest";
import { cohortBibtex, cohortCslJson, compareExportTarget, historyFilters, parseCohortParam, rerunHref, sideRequest } from "@/lib/client/cohorts-api";
import { encodeFilter } from "@/lib/client/filter-codec";
import { searchFilterExpression, searchFiltersFromParams, type SearchUrlState } from "@/lib/client/search-url-state";

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

  it("a history row's stored filter and sort come back as the search page's filters, and run again with them", () => {
    const state: SearchUrlState = { q: "rozbój", mode: "hybrid", jurisdiction: ["PL", "UK"], from: "2015-01-01", to: "2019-12-31", court: 'Sąd "Okręgowy" w Łodzi', sort: "newest", page: 1 };
    const params = { filter: searchFilterExpression(state), sort: "newest" };
    expect(searchFiltersFromParams(params)).toEqual({ jurisdiction: ["PL", "UK"], from: "2015-01-01", to: "2019-12-31", court: 'Sąd "Okręgowy" w Łodzi', sort: "newest" });
    const href = rerunHref({ query: "rozbój", mode: "hybrid", params });
    const sp = new URL(href, "http://x").searchParams;
    expect(sp.get("q")).toBe("rozbój");
    expect(sp.get("mode")).toBe("hybrid");
    expect(sp.getAll("jurisdiction")).toEqual(["PL", "UK"]);
    expect([sp.get("from"), sp.get("to"), sp.get("court"), sp.get("sort")]).toEqual(["2015-01-01", "2019-12-31", 'Sąd "Okręgowy" w Łodzi', "newest"]);
    // Each part alone, and none.
    for (const one of [{ jurisdiction: ["UK"] as const }, { from: "2001-02-03" }, { to: "2020-02-29" }, { court: "Crown Court at Leeds" }]) {
      const s = { ...state, jurisdiction: [], from: "", to: "", court: "", sort: undefined, ...one } as SearchUrlState;
      expect(searchFiltersFromParams({ filter: searchFilterExpression(s) })).toMatchObject(one);
    }
    expect(searchFiltersFromParams(null)).toEqual({ jurisdiction: [], from: "", to: "", court: "" });
  });

  it("filters the search page cannot set (an API search's) are not restored: the query and mode run alone", () => {
    for (const params of [{ filter: 'jurisdiction = "PL"' }, { filter: 'jurisdiction IN ["PL"] AND case_type = "criminal"' }, { filters: { appellant: ["offender"] } }, { sort: "decision_date:asc" }]) {
      expect(historyFilters({ query: "x", mode: "text", params }), JSON.stringify(params)).toBeNull();
      expect(rerunHref({ query: "x", mode: "semantic", params })).toBe("/search?q=x&mode=semantic");
    }
  });
});
