/**
 * lib/search/citations.ts: case numbers and neutral citations recognised in real formats, typed
 * the ways people type them, normalised to one key; near misses recognised as nothing.
 */
import { describe, expect, it } from "vitest";
import {
  CitationIndex,
  documentCitationKeys,
  findCitations,
  queryCitationKeys,
  romanValue,
  valueCitationKeys,
} from "@/lib/search/citations";

const keys = (q: string) => queryCitationKeys(q);

describe("Polish sygnatury", () => {
  it.each([
    ["II AKa 177/14", "pl:ii aka 177/14"],
    ["ii aka 177/14", "pl:ii aka 177/14"],
    ["II AKA 177/14", "pl:ii aka 177/14"],
    ["IIAKa177/14", "pl:ii aka 177/14"],
    ["II  AKa   177 / 14", "pl:ii aka 177/14"],
    ["II AKa 177/2014", "pl:ii aka 177/14"],
    ["sygn. akt II AKa 177/14", "pl:ii aka 177/14"],
    ["Sygn. akt: II AKa 177/14.", "pl:ii aka 177/14"],
    ["wyrok II AKa 177/14 zabójstwo", "pl:ii aka 177/14"],
    ["II K 123/15", "pl:ii k 123/15"],
    ["III KK 45/20", "pl:iii kk 45/20"],
    ["V KZ 12/19", "pl:v kz 12/19"],
    ["VKZ 12/19", "pl:v kz 12/19"],
    ["II AKz 300/18", "pl:ii akz 300/18"],
    ["IV Ka 1234/17", "pl:iv ka 1234/17"],
    ["IVKa 1234/17", "pl:iv ka 1234/17"],
    ["IX Ka 5/21", "pl:ix ka 5/21"],
    ["XIV K 1/20", "pl:xiv k 1/20"],
    ["I ACa 1000/19", "pl:i aca 1000/19"],
    ["III CZP 7/21", "pl:iii czp 7/21"],
    ["I KZP 4/19", "pl:i kzp 4/19"],
    ["II OSK 1234/19", "pl:ii osk 1234/19"],
    ["II SA/Wa 1234/19", "pl:ii sa/wa 1234/19"],
    ["II AKa 07/14", "pl:ii aka 7/14"],
  ])("%s → %s", (q, key) => {
    expect(keys(q)).toEqual([key]);
  });

  it.each([
    "I am 5/10", // not a repertorium
    "IIII K 1/15", // not a Roman numeral
    "VX K 1/15",
    "II AKa 177", // no year
    "II AKa 177/1", // a one-digit year
    "II AKa 177/14a",
    "AKa 177/14", // no department
    "art. 148 § 1 k.k.",
    "12/05/2019",
    "II Wojna 12/14",
    "zabójstwo nożem",
    "XL K 1/15", // department 40: beyond any court's
  ])("near miss %s → nothing", (q) => {
    expect(keys(q)).toEqual([]);
  });
});

describe("UK neutral citations", () => {
  it.each([
    ["[2013] EWCA Crim 710", "uk:2013 ewca crim 710"],
    ["2013 EWCA Crim 710", "uk:2013 ewca crim 710"],
    ["[2013]EWCA Crim 710", "uk:2013 ewca crim 710"],
    ["[2013] ewca crim 710", "uk:2013 ewca crim 710"],
    ["(2013) EWCA Crim 710", "uk:2013 ewca crim 710"],
    ["R v Smith [2013] EWCA Crim 710, sentence", "uk:2013 ewca crim 710"],
    ["[2013] EWCA Civ 1", "uk:2013 ewca civ 1"],
    ["[2019] EWHC 123 (QB)", "uk:2019 ewhc 123 qb"],
    ["[2019] EWHC 123 ( QB )", "uk:2019 ewhc 123 qb"],
    ["[2019] EWHC 123 QB", "uk:2019 ewhc 123 qb"],
    ["[2019] EWHC 123 (Admin)", "uk:2019 ewhc 123 admin"],
    ["[2019] EWHC 123", "uk:2019 ewhc 123"],
    ["[2020] UKSC 5", "uk:2020 uksc 5"],
    ["[2020] uksc 5", "uk:2020 uksc 5"],
    ["[2008] UKHL 19", "uk:2008 ukhl 19"],
    ["[2019] EWFC B12", "uk:2019 ewfc b12"],
  ])("%s → %s", (q, key) => {
    expect(keys(q)).toEqual([key]);
  });

  it.each([
    "[2013] EWCA 710", // the Court of Appeal always names Civ or Crim
    "[2020] UKSC Crim 5",
    "EWCA Crim 710", // no year
    "[2013] EWCA Crim", // no number
    "[2013] WLR 710", // a law report, not a neutral citation
    "[2013] EWCA Crim 710 (Crim)",
  ])("near miss %s → nothing", (q) => {
    expect(keys(q)).toEqual([]);
  });

  it("a citation stored with a division is found without it too", () => {
    expect(valueCitationKeys("[2019] EWHC 123 (QB)")).toEqual(["uk:2019 ewhc 123 qb", "uk:2019 ewhc 123"]);
    expect(valueCitationKeys("[2013] EWCA Crim 710")).toEqual(["uk:2013 ewca crim 710"]);
  });
});

describe("UK Court of Appeal case numbers", () => {
  it.each([
    ["201203456 B1", "ukcase:2012 03456 b1"],
    ["201203456B1", "ukcase:2012 03456 b1"],
    ["201203456 b1", "ukcase:2012 03456 b1"],
    ["2012/03456/B1", "ukcase:2012 03456 b1"],
    ["2012 / 03456 / B1", "ukcase:2012 03456 b1"],
    ["2012 03456 B1", "ukcase:2012 03456 b1"],
    ["2012/3456/B1", "ukcase:2012 03456 b1"],
    ["Case No: 201508622 B4", "ukcase:2015 08622 b4"],
  ])("%s → %s", (q, key) => {
    expect(keys(q)).toEqual([key]);
  });

  it.each(["201203456", "2012345 B1", "2012 B1", "B1 201203456", "1812/03456/B1"])("near miss %s → nothing", (q) => {
    expect(keys(q)).toEqual([]);
  });
});

describe("queries and documents", () => {
  it("finds several citations in one query, in order, each once", () => {
    const found = findCitations("R v Smith [2013] EWCA Crim 710 and II AKa 1/20, also [2013] EWCA Crim 710");
    expect(found.map((c) => [c.kind, c.key, c.text])).toEqual([
      ["uk_neutral", "uk:2013 ewca crim 710", "[2013] EWCA Crim 710"],
      ["pl_docket", "pl:ii aka 1/20", "II AKa 1/20"],
      ["uk_neutral", "uk:2013 ewca crim 710", "[2013] EWCA Crim 710"],
    ]);
    expect(keys("R v Smith [2013] EWCA Crim 710 and II AKa 1/20, also [2013] EWCA Crim 710")).toEqual([
      "uk:2013 ewca crim 710",
      "pl:ii aka 1/20",
    ]);
  });

  it("bounds the keys of one query", () => {
    const q = Array.from({ length: 20 }, (_, i) => `II K ${i + 1}/20`).join(" ");
    expect(keys(q)).toHaveLength(8);
  });

  it("reads a judgment's keys from case_number and base_neutral_citation_number, as the seed writes them", () => {
    expect(documentCitationKeys({ case_number: "II AKa 180/06", base_neutral_citation_number: "II AKa 180/06" })).toEqual([
      "pl:ii aka 180/06",
    ]);
    expect(
      documentCitationKeys({ case_number: "201508622 B4", base_neutral_citation_number: "[2016] EWCA Crim 339", title: "II K 1/20" }),
    ).toEqual(["ukcase:2015 08622 b4", "uk:2016 ewca crim 339"]);
    expect(documentCitationKeys({ case_number: null, title: "R v Smith" })).toEqual([]);
  });

  it("romanValue accepts canonical numerals 1-39 only", () => {
    expect(["I", "II", "IV", "IX", "XIV", "XXXIX"].map(romanValue)).toEqual([1, 2, 4, 9, 14, 39]);
    expect(["IIII", "VX", "IL", "XL", "", "A"].map(romanValue)).toEqual([null, null, null, null, null, null]);
  });
});

describe("CitationIndex", () => {
  it("maps keys to ids and follows replacement and deletion", () => {
    const ix = new CitationIndex();
    ix.set("a", { case_number: "II AKa 1/20" });
    ix.set("b", { case_number: "II AKa 1/20" }); // the same sygnatura in another court
    ix.set("c", { case_number: "2012/03456/B1", base_neutral_citation_number: "[2013] EWCA Crim 710" });
    expect(ix.lookup(keys("ii aka 1/20"))).toEqual(["a", "b"]);
    expect(ix.lookup(keys("201203456 B1"))).toEqual(["c"]);
    expect(ix.lookup(keys("[2013] EWCA Crim 710 II AKa 1/20"))).toEqual(["c", "a", "b"]);
    ix.set("a", { case_number: "II AKa 2/20" });
    expect(ix.lookup(keys("II AKa 1/20"))).toEqual(["b"]);
    expect(ix.lookup(keys("II AKa 2/20"))).toEqual(["a"]);
    ix.delete("b");
    expect(ix.lookup(keys("II AKa 1/20"))).toEqual([]);
    expect(ix.size).toBe(2);
  });
});
