import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64UrlDecode,
  base64UrlEncode,
  decodeFilter,
  encodeFilter,
  epochToIsoDate,
  filterKeys,
  isoDateToEpoch,
  normaliseFilter,
  toApiFilter,
  type PageFilter,
} from "@/lib/client/filter-codec";
import { documentHref, parseExtractionState, serializeExtractionState } from "@/lib/client/extraction-url-state";
import { rpcFilterFields } from "@/lib/schema";

const params = (qs: string) => new URLSearchParams(qs);

describe("base64url", () => {
  it("round-trips any unicode text and never emits +, / or =", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const enc = base64UrlEncode(s);
        expect(enc).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(base64UrlDecode(enc)).toBe(s);
      }),
    );
  });
  it("rejects characters outside the alphabet", () => {
    expect(() => base64UrlDecode("ab+c")).toThrow();
  });
});

describe("dates", () => {
  it("converts ISO dates to epoch seconds at UTC midnight and back", () => {
    expect(isoDateToEpoch("2015-01-01")).toBe(1420070400);
    expect(epochToIsoDate(1420070400)).toBe("2015-01-01");
    expect(isoDateToEpoch("2015-02-30")).toBeNull();
    fc.assert(
      fc.property(fc.date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(epochToIsoDate(isoDateToEpoch(iso)!)).toBe(iso);
      }),
    );
  });
});

describe("filter codec", () => {
  const sample: PageFilter = {
    jurisdiction: ["UK"],
    decision_date: { min: isoDateToEpoch("2015-01-01")!, max: isoDateToEpoch("2019-12-31")! },
    did_offender_confess: true,
    offender_gender: ["gender_female"],
    victim_age_offence: { min: 0, max: 17 },
  };

  it("round-trips a filter through f", () => {
    const f = encodeFilter(sample);
    expect(decodeFilter(f)).toEqual({ filter: normaliseFilter(sample), malformed: false });
  });

  it("gives one f per filter whatever the key order", () => {
    const reversed = Object.fromEntries(Object.entries(sample).reverse()) as PageFilter;
    expect(encodeFilter(reversed)).toBe(encodeFilter(sample));
  });

  it("encodes the empty filter (and empty selections, D-09) as no parameter", () => {
    expect(encodeFilter({})).toBe("");
    expect(encodeFilter({ jurisdiction: [], case_name: "  " })).toBe("");
  });

  it("sends date ranges as ISO {from,to} (D-08) and leaves other keys as they are", () => {
    expect(toApiFilter(sample)).toEqual({
      jurisdiction: ["UK"],
      decision_date: { from: "2015-01-01", to: "2019-12-31" },
      did_offender_confess: true,
      offender_gender: ["gender_female"],
      victim_age_offence: { min: 0, max: 17 },
    });
    expect(toApiFilter({ decision_date: { min: isoDateToEpoch("2020-06-01")! } })).toEqual({ decision_date: { from: "2020-06-01" } });
  });

  it("accepts ISO {min,max} and {from,to} date pairs and holds them as epoch seconds", () => {
    const a = normaliseFilter({ decision_date: { min: "2015-01-01", max: "2015-12-31" } });
    const b = normaliseFilter({ decision_date: { from: "2015-01-01", to: "2015-12-31" } });
    expect(a).toEqual({ decision_date: { min: 1420070400, max: 1451520000 } });
    expect(b).toEqual(a);
  });

  it.each([
    ["not base64url", "%%%"],
    ["not JSON", base64UrlEncode("{nope")],
    ["an array", base64UrlEncode("[1,2]")],
    ["an unknown key", base64UrlEncode(JSON.stringify({ no_such_field: ["x"] }))],
    ["an enum value outside its set", base64UrlEncode(JSON.stringify({ jurisdiction: ["FR"] }))],
    ["a wrong shape", base64UrlEncode(JSON.stringify({ victim_age_offence: "young" }))],
    ["an inverted range", base64UrlEncode(JSON.stringify({ victim_age_offence: { min: 9, max: 3 } }))],
    ["a bad date", base64UrlEncode(JSON.stringify({ decision_date: { from: "2015-13-01" } }))],
    ["collection_ids (refused by the filter endpoints, D-10)", base64UrlEncode(JSON.stringify({ collection_ids: [] }))],
    ["invalid UTF-8", base64UrlEncode("x").slice(0, 1) + "_w"],
  ])("turns %s into an empty filter with the malformed flag", (_why, f) => {
    expect(decodeFilter(f)).toEqual({ filter: {}, malformed: true });
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = decodeFilter(s);
        expect(typeof r.malformed).toBe("boolean");
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = decodeFilter(base64UrlEncode(JSON.stringify(v)));
        expect(typeof r.malformed).toBe("boolean");
      }),
    );
  });

  it("knows every filterable registry field and the core keys", () => {
    const keys = filterKeys();
    for (const f of rpcFilterFields()) if (f.control !== "none") expect(keys.has(f.name)).toBe(true);
    expect(keys.has("jurisdiction")).toBe(true);
    expect(keys.has("decision_date")).toBe(true);
    expect(keys.has("court_name")).toBe(true);
    expect(keys.has("collection_ids")).toBe(false);
  });
});

describe("the cites key in the page's filter", () => {
  it("keeps provision ids and drops a URL whose cites value is no id (malformed, not widened)", () => {
    expect(filterKeys().get("cites")?.control).toBe("tag_array");
    expect(normaliseFilter({ cites: ["PL/kk/279/§1"] })).toEqual({ cites: ["PL/kk/279/§1"] });
    expect(normaliseFilter({ cites: ["279 § 1 kk"] })).toBeNull();
    expect(decodeFilter(encodeFilter({ cites: ["PL/kk/279/§1"] }))).toEqual({ filter: { cites: ["PL/kk/279/§1"] }, malformed: false });
  });
});

describe("extraction page URL state", () => {
  it("restores f, q, page and nl from a shared link", () => {
    const f = encodeFilter({ jurisdiction: ["PL"] });
    const s = parseExtractionState(params(`f=${f}&q=rozb%C3%B3j&page=3&nl=${"x".repeat(300)}`));
    expect(s).toEqual({ filter: { jurisdiction: ["PL"] }, malformed: false, q: "rozbój", page: 3, nl: "x".repeat(255) });
    expect(serializeExtractionState(s)).toBe(`?f=${f}&q=rozb%C3%B3j&page=3&nl=${"x".repeat(255)}`);
  });

  it("defaults bad pages to 1 and leaves empty parts out", () => {
    expect(parseExtractionState(params("page=-2")).page).toBe(1);
    expect(parseExtractionState(params("page=abc")).page).toBe(1);
    expect(serializeExtractionState({ filter: {}, q: " ", page: 1, nl: "" })).toBe("");
  });

  it("reports a malformed f without throwing", () => {
    const s = parseExtractionState(params("f=%7B%7D%7B&q=x"));
    expect(s.malformed).toBe(true);
    expect(s.filter).toEqual({});
    expect(s.q).toBe("x");
  });

  it("links a row to the judgment with the same f and the #base-fields anchor", () => {
    expect(documentHref("abc", "")).toBe("/documents/abc");
    expect(documentHref("abc", "eyJ4Ijox")).toBe("/documents/abc?f=eyJ4Ijox#base-fields");
  });
});
