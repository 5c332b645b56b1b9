import { describe, expect, it } from "vitest";
import { citationText, permalinkPath } from "@/components/documents/citation";
import { FIND_STOPWORDS, findRanges, findTerms } from "@/components/documents/find-in-text";
import { STOPWORDS } from "@/lib/search/text/stopwords";

const marked = (text: string, query: string) => findRanges(text, findTerms(query)).map(([s, e]) => text.slice(s, e));

describe("in-document find: terms of a query", () => {
  it("keeps words and quoted phrases folded; drops stop-words, one-letter tokens, exclusions, fields and OR", () => {
    expect(findTerms("kradzież z włamaniem")).toEqual(["wlamaniem", "kradziez"]);
    expect(findTerms('"Sąd Apelacyjny" -uniewinniony -"sąd okręgowy" court:Poznań year:2019 robbery OR theft')).toEqual([
      "sad apelacyjny",
      "robbery",
      "theft",
    ]);
    expect(findTerms("the of a on with")).toEqual([]);
  });

  it("skips the same stop-words as the search", () => {
    expect([...FIND_STOPWORDS].sort()).toEqual([...STOPWORDS].sort());
  });
});

describe("in-document find: matches", () => {
  it("is case- and diacritics-insensitive and marks whole inflected words from their start", () => {
    const text = "Oskarżony dokonał KRADZIEŻY z włamaniem; kradzież była druga. Przekradziez nie.";
    expect(marked(text, "kradziez wlamanie")).toEqual(["KRADZIEŻY", "włamaniem", "kradzież"]);
  });

  it("never marks one-letter words or initials for a query made of them", () => {
    expect(marked("Artur Z. został skazany z art. 280", "z Z.")).toEqual([]);
  });

  it("matches phrases across runs of whitespace and keeps the original offsets after folded letters", () => {
    const text = "Łódź: Sąd  Apelacyjny\nw Poznaniu, sąd apelacyjny";
    expect(marked(text, '"sad apelacyjny"')).toEqual(["Sąd  Apelacyjny", "sąd apelacyjny"]);
    const [[s]] = findRanges(text, ["sad apelacyjny"]);
    expect(text.slice(0, s)).toBe("Łódź: ");
  });

  it("gives disjoint ranges in text order when terms overlap", () => {
    expect(marked("knife attack; attacker with a knife", "knife attack")).toEqual(["knife", "attack", "attacker", "knife"]);
  });
});

describe("citation text and permalink", () => {
  const base = { id: "11111111-1111-4111-8111-111111111111", title: "", courtLevel: null, publicationDate: null, sourceUrl: null, source: null, licence: null, summary: null, judges: [], keywords: [], legalTopics: [] };

  it("writes a Polish judgment as Polish lawyers cite it", () => {
    const j = { ...base, caseNumber: "II AKa 516/19", country: "PL", courtName: "Sąd Apelacyjny w Poznaniu", dateIssued: "2019-04-05", decisionType: "Wyrok", base: {} };
    expect(citationText(j)).toBe("II AKa 516/19, wyrok SA w Poznaniu z 5.04.2019 r.");
    expect(permalinkPath(j)).toBe("/cite/II%20AKa%20516/19");
  });

  it("cites a UK judgment by its neutral citation after the case name", () => {
    const j = { ...base, title: "R v Smith", caseNumber: "201403546 B3", country: "UK", courtName: "Court of Appeal", dateIssued: "2015-07-01", decisionType: "Judgment", base: { base_neutral_citation_number: "[2015] EWCA Crim 1390" } };
    expect(citationText(j)).toBe("R v Smith [2015] EWCA Crim 1390");
    expect(permalinkPath(j)).toBe("/cite/%5B2015%5D%20EWCA%20Crim%201390");
  });
});
