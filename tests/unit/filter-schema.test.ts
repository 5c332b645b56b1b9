/**
 * The one server parser of the filter object (lib/schema/filters.ts): the field it names, real calendar dates,
 * enum sets (jurisdiction included), null values, and the caps per list and per request (security review H1).
 */
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { countFilterListValues, validateFilters } from "@/lib/schema/filters";
import { structuredFilterNode, UnsupportedFilterKeyError } from "@/lib/search/filter";

const verdict = (raw: unknown) => {
  const r = validateFilters(raw);
  return r.ok ? "ok" : r.issue.field;
};

describe("validateFilters", () => {
  it("accepts valid objects and treats absent or null as no filter", () => {
    expect(validateFilters(undefined)).toEqual({ ok: true, filters: {} });
    expect(validateFilters(null)).toEqual({ ok: true, filters: {} });
    const f = { jurisdiction: ["PL"], decision_date: { from: "2010-01-01" }, num_victims: { min: 1 }, did_offender_confess: true };
    expect(validateFilters(f)).toEqual({ ok: true, filters: f });
  });

  it("names the offending key: enum values, jurisdiction, impossible dates, null values, unknown keys", () => {
    expect(verdict({ offender_gender: ["male"] })).toBe("offender_gender");
    expect(verdict({ jurisdiction: ["DE"] })).toBe("jurisdiction");
    expect(verdict({ decision_date: "2010-02-30" })).toBe("decision_date");
    expect(verdict({ decision_date: { min: "2010-02-29" } })).toBe("decision_date");
    expect(verdict({ decision_date: "2012-02-29" })).toBe("ok");
    expect(verdict({ did_offender_confess: null })).toBe("did_offender_confess");
    expect(verdict({ nope: [] })).toBe("nope");
    expect(verdict(["jurisdiction"])).toBe("filters");
  });

  it("caps values per list (FILTER_MAX_LIST_VALUES) and per object (FILTER_MAX_TOTAL_VALUES), naming the cap", () => {
    const { FILTER_MAX_LIST_VALUES: perList, FILTER_MAX_TOTAL_VALUES: total } = config();
    const vals = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    expect(verdict({ keywords: vals(perList, "k") })).toBe("ok");
    const over = validateFilters({ keywords: vals(perList + 1, "k") });
    expect(over).toMatchObject({ ok: false, issue: { field: "keywords" } });
    expect(!over.ok && over.issue.message).toContain("FILTER_MAX_LIST_VALUES");
    // Spread over keys, each list within its cap: the sum is what is bounded.
    const keys = ["keywords", "convict_offences", "acquit_offences", "sentences_received", "agg_fact_sent", "mit_fact_sent"];
    const spread = (n: number) => {
      const out: Record<string, string[]> = {};
      let left = n;
      for (const k of keys) {
        out[k] = vals(Math.min(perList, left), k);
        left -= out[k].length;
      }
      return out;
    };
    expect(countFilterListValues(spread(total))).toBe(total);
    expect(verdict(spread(total))).toBe("ok");
    const sum = validateFilters(spread(total + 1));
    expect(sum).toMatchObject({ ok: false, issue: { field: "filters" } });
    expect(!sum.ok && sum.issue.message).toContain("FILTER_MAX_TOTAL_VALUES");
  });
});

describe("the cites key", () => {
  it("takes provision, guideline and judgment ids, refuses anything else naming cites, and maps to the index's any-of", () => {
    const ok = ["PL/kk/279/§1", "PL/kk", "PL/kpc/479^31/§2", "PL/kpk/438/pkt2", "UK/ukpga/1861/100/s18/1", "UK/act/fraud-act-2006", "UK/guideline/robbery", "0000000a-0000-4000-8000-000000000001"];
    expect(validateFilters({ cites: ok })).toEqual({ ok: true, filters: { cites: ok } });
    for (const bad of ["PL/kk/279/1", "art. 279 § 1 k.k.", "PL/KK/279", "0000000A-0000-4000-8000-000000000001", "UK/ukpga/1861/100/18", "", "PL/kk/279/§1 "]) {
      expect(verdict({ cites: [bad] }), bad).toBe("cites");
    }
    expect(structuredFilterNode({ cites: ["PL/kk/279/§1", "PL/kk/280"] })).toEqual({ type: "in", attribute: "cites", values: ["PL/kk/279/§1", "PL/kk/280"], negated: false });
  });
});

describe("structuredFilterNode (the search path's mapping of a validated object)", () => {
  it("maps each control to the engine's clause on the index attribute", () => {
    expect(
      structuredFilterNode({
        jurisdiction: ["UK"],
        decision_date: "2010-01-02",
        date_of_appeal_court_judgment: { from: "2010-01-01", to: null },
        num_victims: { min: 2 },
        did_offender_confess: false,
        keywords: [],
      }),
    ).toEqual({
      type: "and",
      children: [
        { type: "compare", attribute: "base_date_of_appeal_court_judgment_ts", op: ">=", value: 1262304000 },
        { type: "range", attribute: "decision_date_ts", from: 1262390400, to: 1262390400 + 86_399 },
        { type: "compare", attribute: "base_did_offender_confess", op: "=", value: false },
        { type: "in", attribute: "jurisdiction", values: ["UK"], negated: false },
        { type: "in", attribute: "base_keywords", values: [], negated: false },
        { type: "compare", attribute: "base_num_victims", op: ">=", value: 2 },
      ],
    });
    expect(structuredFilterNode({ decision_date: {} })).toBeUndefined();
  });

  it("refuses keys the index cannot filter on, naming them", () => {
    for (const key of ["court_name", "case_name", "collection_ids"]) {
      const value = key === "case_name" ? "smith" : ["x"];
      expect(() => structuredFilterNode({ [key]: value })).toThrow(UnsupportedFilterKeyError);
    }
  });
});
