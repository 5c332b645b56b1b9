/** The query language (lib/search/query-syntax.ts) and its mapping in lib/backend/search.ts: one rule per test. */
import { describe, expect, it } from "vitest";
import { parseSearchQuery } from "@/lib/search/query-syntax";
import { parseQuery } from "@/lib/search/lancedb/query";
import { orAlternatives } from "@/lib/search/meilisearch/search";
import { parseSort, searchQueryParts } from "@/lib/backend/search";
import { ApiError } from "@/lib/errors";

describe("query syntax", () => {
  it("keeps plain words as typed (the citation recogniser reads them)", () => {
    const p = parseSearchQuery("II AKa 516/19 rozbój");
    expect(p.q).toBe("II AKa 516/19 rozbój");
    expect(p.warnings).toEqual([]);
  });

  it("writes phrases, exclusions and OR in the engine's syntax", () => {
    expect(parseSearchQuery('"kradzież z włamaniem" -"środek zapobiegawczy" -nóż robbery OR burglary').q).toBe(
      '"kradziez z wlamaniem" -"srodek zapobiegawczy" -noz robbery OR burglary',
    );
  });

  it("OR joins quoted phrases, and a word with a phrase", () => {
    expect(parseSearchQuery('"kradzież z włamaniem" OR "rozbój z użyciem noża"').q).toBe('"kradziez z wlamaniem" OR "rozboj z uzyciem noza"');
    const mixed = parseSearchQuery('knife OR "kitchen knife" OR machete robbery');
    expect(mixed.q).toBe('knife OR "kitchen knife" OR machete robbery');
    expect(mixed.warnings).toEqual([]);
    // Not an operand: an exclusion, a field, or nothing.
    const neg = parseSearchQuery('"armed robbery" OR -knife');
    expect(neg.q).toBe('"armed robbery" -knife');
    expect(neg.warnings.join(" ")).toMatch(/OR needs a word or a quoted phrase/);
    expect(parseSearchQuery('"armed robbery" OR').warnings).toHaveLength(1);
    expect(parseSearchQuery('-"armed robbery" OR knife').q).toBe('-"armed robbery" knife');
  });

  it("reads court:, judge:, case: as field terms and year:, jurisdiction: as filters", () => {
    const p = parseSearchQuery('rozbój court:"Apelacyjny w Poznaniu" judge:Kowalski case:"II AKa 516/19" year:2015..2019 jurisdiction:pl');
    expect(p.q).toBe("rozbój");
    expect(p.fieldTerms).toEqual([
      { attribute: "court_name", words: ["apelacyjny", "w", "poznaniu"] },
      { attribute: "judges_flat", words: ["kowalski"] },
      { attribute: "case_number", words: ["ii", "aka", "516", "19"] },
    ]);
    expect(p.years).toEqual({ from: 2015, to: 2019 });
    expect(p.jurisdiction).toBe("PL");
  });

  it("degrades what it cannot parse to plain words, with a warning, never throwing", () => {
    const unclosed = parseSearchQuery('armed "robbery with');
    expect(unclosed.q).toBe("armed robbery with");
    expect(unclosed.warnings.join(" ")).toMatch(/Unclosed quote/);
    const dangling = parseSearchQuery("murder - knife");
    expect(dangling.q).toBe("murder knife");
    expect(dangling.warnings.join(" ")).toMatch(/'-'/);
    const badYear = parseSearchQuery("year:20x5 fraud");
    expect(badYear.years).toBeNull();
    expect(badYear.q).toBe("20x5 fraud");
    expect(badYear.warnings.join(" ")).toMatch(/year:20x5/);
    const badOr = parseSearchQuery("OR fraud");
    expect(badOr.q).toBe("fraud");
    expect(badOr.warnings.join(" ")).toMatch(/OR/);
    expect(parseSearchQuery('jurisdiction:fr "').warnings).toHaveLength(2);
  });
});

describe("the embedded engine's reading of the port syntax", () => {
  it("phrases are required words checked for adjacency; exclusions are not ranked words", () => {
    const p = parseQuery('"armed robbery" -knife -"post office" shop');
    expect(p.words.map((w) => w.text)).toEqual(["armed", "robbery", "shop"]);
    expect(p.required).toEqual([true, true, false]);
    expect(p.phrases).toEqual([["armed", "robbery"]]);
    expect(p.excluded).toEqual([["knife"], ["post", "office"]]);
    expect(p.words[2].prefix).toBe(true);
  });

  it("a OR b is one word slot with two words", () => {
    const p = parseQuery("robbery OR burglary knife");
    expect(p.alternatives.map((a) => a.map((w) => w.text))).toEqual([["robbery", "burglary"], ["knife"]]);
  });

  it("an OR group with a phrase is one required slot of every member's words, checked whole by the constraints", () => {
    const p = parseQuery('"kitchen knife" OR machete robbery');
    expect(p.alternatives.map((a) => a.map((w) => w.text))).toEqual([["kitchen", "knife", "machete"], ["robbery"]]);
    expect(p.required).toEqual([true, false]);
    expect(p.alternatives[0].map((w) => w.typos)).toEqual([false, false, true]);
    expect(p.phrases).toEqual([]);
    expect(p.orGroups).toEqual([
      [
        { words: ["kitchen", "knife"], quoted: true },
        { words: ["machete"], quoted: false },
      ],
    ]);
    expect(p.words[1].prefix).toBe(true);
    // Words only: the slot of before, no group.
    const words = parseQuery("robbery OR burglary OR theft");
    expect(words.alternatives.map((a) => a.map((w) => w.text))).toEqual([["robbery", "burglary", "theft"]]);
    expect(words.orGroups).toEqual([]);
  });

  it("Meilisearch gets one query per OR alternative", () => {
    expect(orAlternatives("robbery OR burglary knife")).toEqual(["robbery knife", "burglary knife"]);
    expect(orAlternatives("knife")).toEqual(["knife"]);
    expect(orAlternatives('"armed robbery" OR "kitchen knife" appeal')).toEqual(['"armed robbery" appeal', '"kitchen knife" appeal']);
    // A chain is one group of three, not two pairs.
    expect(orAlternatives('robbery OR "kitchen knife" OR theft ')).toEqual(["robbery ", '"kitchen knife" ', "theft "]);
  });
});

describe("search request mapping", () => {
  it("year and jurisdiction become filters on decision_date_ts and jurisdiction", () => {
    const r = searchQueryParts("fraud year:2015 jurisdiction:uk", undefined);
    expect(r.q).toBe("fraud");
    expect(r.filter).toEqual({
      type: "and",
      children: [
        { type: "range", attribute: "decision_date_ts", from: Date.UTC(2015, 0, 1) / 1000, to: Date.UTC(2016, 0, 1) / 1000 - 1 },
        { type: "compare", attribute: "jurisdiction", op: "=", value: "UK" },
      ],
    });
  });

  it("sort accepts relevance, newest, oldest, cited_by (most cited first) and the attr:dir syntax", () => {
    expect(parseSort("relevance")).toBeUndefined();
    expect(parseSort("newest")).toEqual([{ attribute: "decision_date", direction: "desc" }]);
    expect(parseSort("oldest")).toEqual([{ attribute: "decision_date", direction: "asc" }]);
    expect(parseSort("decision_date:desc")).toEqual([{ attribute: "decision_date", direction: "desc" }]);
    expect(parseSort("cited_by")).toEqual([{ attribute: "cited_by_count", direction: "desc" }]);
    let err: unknown;
    try {
      parseSort("full_text:asc");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("INVALID_SORT");
  });
});
