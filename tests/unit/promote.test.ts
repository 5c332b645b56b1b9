import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE_FIELDS, byName, EXTRACTED_FIELDS, type FieldDef } from "@/lib/schema";
import { cleanString, columnsToFieldValues, promoteExtraction, promoteValue } from "@/lib/schema/promote";

const f = (name: string): FieldDef => {
  const field = byName(name);
  if (!field) throw new Error(`no field ${name}`);
  return field;
};

/** Raw values an extractor or a JSONL row may carry: scalars, marker strings, quoted strings, nested lists. */
const enumWords = BASE_FIELDS.flatMap((x) => x.enumValues?.map((o) => o.value) ?? []);
const rawScalar = fc.oneof(
  fc.string(),
  fc.constantFrom("", " null ", "NONE", "None", "'x'", '"yes"', "don't_know", "Don't_Know", "2019-02-28", "2019-02-30", "3.0", " 42 ", "1e3", "t", "F", "“cytat”"),
  fc.constantFrom(...enumWords),
  fc.constantFrom(...enumWords).map((w) => ` "${w.toUpperCase()}" `),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const rawValue = fc.oneof(rawScalar, fc.array(rawScalar, { maxLength: 6 }), fc.dictionary(fc.string(), rawScalar, { maxKeys: 2 }));
const anyField = fc.constantFrom(...BASE_FIELDS);

describe("promoteValue properties", () => {
  it("never throws and returns a value of the column's type", () => {
    fc.assert(
      fc.property(anyField, rawValue, (field, raw) => {
        const v = promoteValue(field, raw);
        if (v === null) return;
        switch (field.type) {
          case "text[]":
            expect(Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string")).toBe(true);
            break;
          case "integer":
            expect(Number.isInteger(v)).toBe(true);
            break;
          case "numeric":
            expect(typeof v === "number" && Number.isFinite(v)).toBe(true);
            break;
          case "boolean":
            expect(typeof v).toBe("boolean");
            break;
          case "date":
            expect(v).toMatch(/^\d{4}-\d{2}-\d{2}$/);
            break;
          default:
            expect(typeof v).toBe("string");
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(anyField, rawValue, (field, raw) => {
        const once = promoteValue(field, raw);
        expect(promoteValue(field, once)).toEqual(once);
      }),
      { numRuns: 3000 },
    );
  });

  it("enum output is always inside the field's set", () => {
    const enumFields = BASE_FIELDS.filter((x) => x.enumValues);
    fc.assert(
      fc.property(fc.constantFrom(...enumFields), rawValue, (field, raw) => {
        const allowed = new Set(field.enumValues!.map((o) => o.value));
        const v = promoteValue(field, raw);
        const items = v === null ? [] : Array.isArray(v) ? v : [v];
        for (const item of items) expect(allowed.has(String(item))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("promoteExtraction is total: every one of the 51 base columns and 15 sentence-number columns, whatever the input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.constantFrom(...EXTRACTED_FIELDS.map((x) => x.name), "junk"), rawValue), rawValue), (raw) => {
        const out = promoteExtraction(raw);
        expect(Object.keys(out).sort()).toEqual(EXTRACTED_FIELDS.map((x) => x.column).sort());
        expect(promoteExtraction(columnsToFieldValues(out))).toEqual(out);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("promotion examples", () => {
  it("null markers, trimming and unquoting", () => {
    for (const m of ["", "   ", "null", " NULL ", "None", "'none'", '""', "“null”"]) expect(promoteValue(f("case_name"), m)).toBeNull();
    expect(promoteValue(f("case_name"), '  "R v Smith"  ')).toBe("R v Smith");
    expect(promoteValue(f("case_name"), "'\"R v Smith\"'")).toBe("R v Smith");
    expect(promoteValue(f("case_name"), "„Kowalski”")).toBe("Kowalski");
    expect(promoteValue(f("case_name"), "unknown")).toBe("unknown"); // only "", null, none are null markers here
    expect(cleanString(' " x " ')).toBe("x");
  });

  it("scalar enums: don't_know, case, out of set", () => {
    expect(promoteValue(f("plea_point"), "don't_know")).toBe("dont_know");
    expect(promoteValue(f("plea_point"), " Before_Trial ")).toBe("before_trial");
    expect(promoteValue(f("plea_point"), "sometime")).toBeNull();
    expect(promoteValue(f("appellant"), ["offender"])).toBe("offender");
    expect(promoteValue(f("appellant"), ["offender", "other"])).toBeNull();
  });

  it("integers and numerics", () => {
    const n = f("num_victims");
    expect(promoteValue(n, 3)).toBe(3);
    expect(promoteValue(n, " 3 ")).toBe(3);
    expect(promoteValue(n, "3.0")).toBe(3);
    expect(promoteValue(n, 2.5)).toBeNull();
    expect(promoteValue(n, "2.5")).toBeNull();
    expect(promoteValue(n, true)).toBeNull();
    expect(promoteValue(n, "three")).toBeNull();
    expect(promoteValue(n, 2 ** 40)).toBeNull();
    expect(promoteValue(f("victim_age_offence"), "16.5")).toBe(16.5);
    expect(promoteValue(f("victim_age_offence"), false)).toBeNull();
    expect(promoteValue(f("victim_age_offence"), "16 years")).toBeNull();
  });

  it("booleans", () => {
    const b = f("did_offender_confess");
    for (const t of [true, "true", "YES", " t ", "1", 1]) expect(promoteValue(b, t)).toBe(true);
    for (const t of [false, "false", "No", "f", "0", 0]) expect(promoteValue(b, t)).toBe(false);
    for (const t of ["maybe", 2, null, "", "none"]) expect(promoteValue(b, t)).toBeNull();
  });

  it("arrays: lone string, null-ish items, enum filtering, empty → null", () => {
    expect(promoteValue(f("convict_offences"), "murder")).toEqual(["murder"]);
    expect(promoteValue(f("convict_offences"), ["murder", " ", null, "none", " robbery ", "murder"])).toEqual(["murder", "robbery"]);
    expect(promoteValue(f("convict_offences"), [])).toBeNull();
    expect(promoteValue(f("convict_offences"), ["null", ""])).toBeNull();
    expect(promoteValue(f("offender_gender"), ["gender_male", "male", "GENDER_FEMALE"])).toEqual(["gender_male", "gender_female"]);
    expect(promoteValue(f("offender_gender"), "gender_female")).toEqual(["gender_female"]);
    expect(promoteValue(f("offender_gender"), ["bogus"])).toBeNull();
  });

  it("dates must be ISO and real", () => {
    const d = f("date_of_appeal_court_judgment");
    expect(promoteValue(d, "2019-03-14")).toBe("2019-03-14");
    expect(promoteValue(d, "2019-03-14T10:00:00Z")).toBe("2019-03-14");
    expect(promoteValue(d, "14/03/2019")).toBeNull();
    expect(promoteValue(d, "14 March 2019")).toBeNull();
    expect(promoteValue(d, "2019-02-29")).toBeNull();
    expect(promoteValue(d, "2020-02-29")).toBe("2020-02-29");
  });

  it("every column gets a value so re-extraction clears stale ones", () => {
    const out = promoteExtraction({ case_name: "R v Smith", base_num_victims: "2" });
    expect(Object.keys(out)).toHaveLength(51 + 15);
    expect(out.base_case_name).toBe("R v Smith");
    expect(out.base_num_victims).toBe(2);
    expect(out.base_appeal_outcome).toBeNull();
    expect(promoteExtraction("not an object").base_case_name).toBeNull();
  });
});
