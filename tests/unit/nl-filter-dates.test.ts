import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveDateRange, findDatePhrases, intersect, namesAppealJudgmentDate } from "@/lib/llm/nl-filter-dates";
import { namedJurisdictions } from "@/lib/llm/nl-filter-jurisdiction";

/**
 * The spec's date mapping table (nl-filter), English and Polish phrasings side by side: each pair must give the
 * same range, and the range the table states.
 */
const IN_2019 = { from: "2019-01-01", to: "2019-12-31" };
const SINCE_2015 = { from: "2015-01-01" };
const AFTER_2015 = { from: "2016-01-01" };
const BEFORE_2010 = { to: "2009-12-31" };
const BETWEEN_2015_2019 = { from: "2015-01-01", to: "2019-12-31" };

const TABLE: { kind: string; range: object; en: string[]; pl: string[] }[] = [
  {
    kind: "in",
    range: IN_2019,
    en: ["murder appeals in 2019", "judgments in the year 2019", "sentences passed during 2019", "cases from 2019", "In 2019, what appeals were dismissed?"],
    pl: ["apelacje w sprawach zabójstw w roku 2019", "wyroki w 2019 roku", "orzeczenia w 2019 r.", "sprawy z 2019 roku", "W roku 2019 oddalone apelacje", "wyroki z roku 2019"],
  },
  {
    kind: "since",
    range: SINCE_2015,
    en: ["robbery cases since 2015", "appeals from 2015 onwards", "judgments starting in 2015", "2015 onwards"],
    pl: ["rozboje od 2015", "wyroki od roku 2015", "sprawy od 2015 roku", "orzeczenia od 2015 r.", "począwszy od 2015 roku"],
  },
  {
    kind: "after",
    range: AFTER_2015,
    en: ["appeals after 2015", "decided later than 2015", "judgments after the year 2015"],
    pl: ["apelacje po 2015", "wyroki po 2015 roku", "orzeczenia po roku 2015", "sprawy po 2015 r.", "później niż 2015"],
  },
  {
    kind: "before",
    range: BEFORE_2010,
    en: ["fraud judgments before 2010", "appeals prior to 2010", "earlier than 2010"],
    pl: ["oszustwa przed 2010", "wyroki przed 2010 rokiem", "orzeczenia przed rokiem 2010", "sprawy przed 2010 r.", "wcześniej niż 2010"],
  },
  {
    kind: "between",
    range: BETWEEN_2015_2019,
    en: ["appeals between 2015 and 2019", "judgments from 2015 to 2019", "cases from 2015 until 2019", "sentences in 2015-2019", "2015–2019 appeals", "between the years 2015 and 2019"],
    pl: [
      "apelacje między 2015 a 2019",
      "wyroki pomiędzy 2015 a 2019 rokiem",
      "między rokiem 2015 a 2019",
      "między 2015 i 2019",
      "orzeczenia od 2015 do 2019",
      "od 2015 roku do 2019 roku",
      "w latach 2015–2019",
      "w latach 2015-2019",
    ],
  },
];

describe("date mapping table (spec: nl-filter), English and Polish", () => {
  for (const row of TABLE) {
    for (const q of [...row.en, ...row.pl]) {
      it(`${row.kind}: "${q}"`, () => {
        expect(deriveDateRange(q)).toEqual(row.range);
        expect(findDatePhrases(q).map((p) => p.kind)).toEqual([row.kind]);
      });
    }
  }

  const pairs: [string, string][] = [
    ["in 2012", "w roku 2012"],
    ["since 2012", "od 2012"],
    ["after 2012", "po 2012"],
    ["before 2012", "przed 2012"],
    ["between 2008 and 2012", "między 2008 a 2012"],
  ];
  it("each English phrasing maps exactly like its Polish twin, for every year", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1901, max: 2098 }), fc.integer({ min: 1901, max: 2098 }), (y, y2) => {
        for (const [en, pl] of pairs) {
          const e = en.replace("2008", String(Math.min(y, y2))).replace("2012", String(Math.max(y, y2)));
          const p = pl.replace("2008", String(Math.min(y, y2))).replace("2012", String(Math.max(y, y2)));
          expect(deriveDateRange(e)).toEqual(deriveDateRange(p));
        }
      }),
    );
  });

  it("computes the bounds from the year: Y included for in/since, excluded for after/before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1901, max: 2098 }), (y) => {
        expect(deriveDateRange(`in ${y}`)).toEqual({ from: `${y}-01-01`, to: `${y}-12-31` });
        expect(deriveDateRange(`od ${y}`)).toEqual({ from: `${y}-01-01` });
        expect(deriveDateRange(`po ${y}`)).toEqual({ from: `${y + 1}-01-01` });
        expect(deriveDateRange(`before ${y}`)).toEqual({ to: `${y - 1}-12-31` });
      }),
    );
  });

  it("orders reversed between-bounds instead of producing an empty range", () => {
    expect(deriveDateRange("between 2019 and 2015")).toEqual(BETWEEN_2015_2019);
    expect(deriveDateRange("między 2019 a 2015")).toEqual(BETWEEN_2015_2019);
  });

  it("intersects several phrases of one question", () => {
    expect(deriveDateRange("appeals after 2015 and before 2020")).toEqual({ from: "2016-01-01", to: "2019-12-31" });
    expect(deriveDateRange("wyroki po 2015 roku i przed 2020 rokiem")).toEqual({ from: "2016-01-01", to: "2019-12-31" });
    expect(deriveDateRange("since 2010, before 2012")).toEqual({ from: "2010-01-01", to: "2011-12-31" });
    expect(intersect([])).toBeNull();
  });

  it("is not fooled by docket numbers, citations, amounts, counts or ages", () => {
    for (const q of [
      "II AKa 123/19",
      "II AKa 2019/20",
      "[2019] EWCA Crim 1234",
      "fraud of 2000 zł",
      "theft from 2000 people",
      "kradzież z 2000 zł",
      "victims under 16",
      "sentences over 10 years",
      "robbery with a knife",
      "case 20190",
      "in 12019",
    ]) {
      expect(deriveDateRange(q), q).toBeNull();
    }
    expect(deriveDateRange("fraud of 2000 zł in 2019")).toEqual(IN_2019);
  });

  it("leaves years the table does not cover to the model", () => {
    expect(deriveDateRange("murder 2019")).toBeNull();
    expect(deriveDateRange("until 2019")).toBeNull();
  });
});

describe("appeal-court judgment date named explicitly", () => {
  it("recognises the explicit wording in English and Polish", () => {
    for (const q of [
      "appeals where the date of the appeal court judgment is after 2015",
      "appeal judgment date before 2010",
      "date of appeal judgment in 2019",
      "appeal court judgments delivered in 2019",
      "data wyroku sądu odwoławczego po 2015 roku",
      "data wydania wyroku sądu apelacyjnego w 2019",
      "wyrok sądu odwoławczego wydany w 2019 roku",
    ]) {
      expect(namesAppealJudgmentDate(q), q).toBe(true);
    }
  });

  it("does not treat appeals in general as naming that date", () => {
    for (const q of ["appeals decided in 2019", "appeal against sentence since 2015", "apelacje w 2019 roku", "wyroki sądu apelacyjnego z 2019", "judgments after 2015"]) {
      expect(namesAppealJudgmentDate(q), q).toBe(false);
    }
  });
});

describe("jurisdiction named in the question", () => {
  it("UK or England gives UK; Poland gives PL; both give PL and UK", () => {
    expect(namedJurisdictions("murder appeals in England")).toEqual(["UK"]);
    expect(namedJurisdictions("UK robbery cases")).toEqual(["UK"]);
    expect(namedJurisdictions("cases in the United Kingdom")).toEqual(["UK"]);
    expect(namedJurisdictions("English courts on knife crime")).toEqual(["UK"]);
    expect(namedJurisdictions("sentencing in Wales")).toEqual(["UK"]);
    expect(namedJurisdictions("rozboje w Anglii")).toEqual(["UK"]);
    expect(namedJurisdictions("wyroki sądów brytyjskich")).toEqual(["UK"]);
    expect(namedJurisdictions("sprawy z Wielkiej Brytanii")).toEqual(["UK"]);
    expect(namedJurisdictions("fraud in Poland")).toEqual(["PL"]);
    expect(namedJurisdictions("Polish appeal courts")).toEqual(["PL"]);
    expect(namedJurisdictions("zabójstwa w Polsce")).toEqual(["PL"]);
    expect(namedJurisdictions("wyroki polskich sądów")).toEqual(["PL"]);
    expect(namedJurisdictions("compare Poland and England")).toEqual(["PL", "UK"]);
    expect(namedJurisdictions("Polska i Wielka Brytania")).toEqual(["PL", "UK"]);
  });

  it("writing in Polish, or asking about a language, names no country", () => {
    expect(namedJurisdictions("apelacje od wyroków za zabójstwo po 2015 roku")).toEqual([]);
    expect(namedJurisdictions("wyroki sądu apelacyjnego w sprawach rozbojów")).toEqual([]);
    expect(namedJurisdictions("judgments written in Polish")).toEqual([]);
    expect(namedJurisdictions("answer in English please: robbery appeals")).toEqual([]);
    expect(namedJurisdictions("wyroki w języku polskim")).toEqual([]);
    expect(namedJurisdictions("napisz po angielsku: apelacje")).toEqual([]);
    expect(namedJurisdictions("murder appeals since 2015")).toEqual([]);
  });

  it("still sees a country next to a language phrase", () => {
    expect(namedJurisdictions("judgments in Polish courts")).toEqual(["PL"]);
    expect(namedJurisdictions("in English law, appeals against sentence")).toEqual(["UK"]);
  });
});
