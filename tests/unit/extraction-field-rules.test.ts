import { describe, expect, it } from "vitest";
import { applyFieldRule, fold, regexMatches } from "@/lib/extraction/custom-rules";
import { fieldsNeedingModel, nameInWords, rulesFillability } from "@/lib/extraction/fillability";
import { extractWithRules } from "@/lib/backend/schemas/extract-document";
import { baseSchemaFields } from "@/lib/backend/extraction-jobs/base";
import { emptyReason } from "@/lib/backend/extraction-jobs/worker";
import { regexProblem } from "@/lib/schema/field-rules";
import { schemaFieldSchema, schemaFieldsSchema, type SchemaField } from "@/lib/schema/requests/schemas";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import { FIXTURES } from "../fixtures/extraction/judgments";

const PL = FIXTURES[0].text; // II AKa 145/19: 15 lat pozbawienia wolności, appeal of the defence, dismissed
const UK = FIXTURES[3].text; // [2021] EWCA Crim 1123: wounding with intent, 9 years, dismissed
const field = (f: Record<string, unknown>): SchemaField => schemaFieldSchema().parse({ description: "", ...f });

describe("what rules mode can fill, declared per field", () => {
  it("base fields and the sentence numbers: yes, each under its registry label", () => {
    const declared = rulesFillability(baseSchemaFields(), true);
    expect(declared.every((f) => f.rules)).toBe(true);
    expect(declared.filter((f) => f.source === "sentence").map((f) => f.name)).toEqual(SENTENCE_FIELDS.map((f) => f.name));
    expect(declared.find((f) => f.name === "sentence_custody_months")?.label).toBe("Custody (months)");
    expect(fieldsNeedingModel(baseSchemaFields(), true, "rules")).toEqual([]);
  });

  it("custom fields: yes with a rule or a rules-v1 name in a type it fits, else no (needs a model)", () => {
    const fields = schemaFieldsSchema().parse([
      { name: "case_number", type: "string" },
      { name: "decision_date", type: "date" },
      { name: "case_number_as_int", type: "integer" },
      { name: "judges", type: "boolean" },
      { name: "weapon_used", type: "boolean", rule: { kind: "keywords", keywords: ["knife", "nóż"] } },
      { name: "victim_age", type: "integer" },
    ]);
    expect(rulesFillability(fields, false).map((f) => [f.name, f.rules, f.source])).toEqual([
      ["case_number", true, "rules_name"],
      ["decision_date", true, "rules_name"],
      ["case_number_as_int", false, null],
      ["judges", false, null],
      ["weapon_used", true, "custom_rule"],
      ["victim_age", false, null],
    ]);
    expect(fieldsNeedingModel(fields, false, "rules").map((f) => f.label)).toEqual(["Case number as int", "Judges", "Victim age"]);
    // With a model every field can be filled.
    expect(fieldsNeedingModel(fields, false, "model")).toEqual([]);
    // A base-schema name in a custom schema is not the base field (the custom schema is not run by the base reader).
    expect(rulesFillability([field({ name: "sentence_custody_months", type: "integer" })], false)[0].rules).toBe(false);
    expect(nameInWords("victim_age_band")).toBe("Victim age band");
  });

  it("the reason of a job with nothing filled names the fields rules looked for and those that need a model", () => {
    const fields = schemaFieldsSchema().parse([
      { name: "weapon", type: "string", rule: { kind: "keywords", keywords: ["knife"] } },
      { name: "victim_age", type: "integer" },
    ]);
    expect(emptyReason(fields, false, "rules")).toBe(
      'No field was filled in any judgment. The rules found no value for "Weapon". Only a language model can fill "Victim age"; none is configured.',
    );
    expect(emptyReason(fields, false, "model")).toBe('No field was filled in any judgment. The model found no value for "Weapon", "Victim age".');
  });
});

describe("custom rules applied by the rules extractor", () => {
  it("regex: the first group (or the whole match) in the field's type", () => {
    expect(applyFieldRule(UK, field({ name: "n", type: "string" }), { kind: "regex", pattern: "contrary to (section \\d+)", case_sensitive: false }).value).toBe("section 18");
    expect(applyFieldRule(UK, field({ name: "n", type: "integer" }), { kind: "regex", pattern: "(\\d+) years' imprisonment", case_sensitive: false }).value).toBe(9);
    expect(applyFieldRule(UK, field({ name: "n", type: "date" }), { kind: "regex", pattern: "On (\\d+ \\w+ \\d{4}) he was sentenced", case_sensitive: false }).value).toBe("2021-01-08");
    expect(applyFieldRule(UK, field({ name: "n", type: "string[]" }), { kind: "regex", pattern: "EWCA Crim \\d+", case_sensitive: true }).value).toEqual(["EWCA Crim 1123", "EWCA Crim 333"]);
    expect(applyFieldRule(UK, field({ name: "n", type: "boolean" }), { kind: "regex", pattern: "pleaded guilty", case_sensitive: false }).value).toBe(true);
    expect(applyFieldRule(UK, field({ name: "n", type: "boolean" }), { kind: "regex", pattern: "acquitted", case_sensitive: false }).value).toBeNull();
    expect(
      applyFieldRule(PL, field({ name: "n", type: "enum", enum_values: ["obrońca", "prokurator"] }), { kind: "regex", pattern: "wniesionej przez (\\p{L}+)", case_sensitive: false }).value,
    ).toBeNull(); // "obrońcę" (accusative) is not the value "obrońca": no guess
    expect(applyFieldRule(UK, field({ name: "n", type: "string" }), { kind: "regex", pattern: "APPELLANT", case_sensitive: true }).value).toBeNull();
  });

  it("keywords: whole words, any case, with or without Polish letters", () => {
    const kw = { kind: "keywords" as const, keywords: ["pozbawienia wolnosci", "grzywna", "knife"] };
    expect(applyFieldRule(PL, field({ name: "n", type: "string[]" }), kw).value).toEqual(["pozbawienia wolnosci"]);
    expect(applyFieldRule(PL, field({ name: "n", type: "boolean" }), kw).value).toBe(true);
    expect(applyFieldRule(UK, field({ name: "n", type: "boolean" }), kw).value).toBeNull();
    // Whole words only: "Leeds" does not hold the keyword "Lee".
    expect(applyFieldRule(UK, field({ name: "n", type: "string" }), { kind: "keywords", keywords: ["Lee"] }).value).toBeNull();
    expect(applyFieldRule(UK, field({ name: "n", type: "enum", enum_values: ["Leeds", "York"] }), { kind: "keywords", keywords: ["york", "leeds"] }).value).toBe("Leeds");
    expect(fold("Włamanie ŁÓDŹ")).toBe("wlamanie lodz");
  });

  it("date and number after a cue", () => {
    expect(applyFieldRule(UK, field({ name: "n", type: "date" }), { kind: "date", cue: "Hearing date" }).value).toBe("2021-07-01");
    expect(applyFieldRule(PL, field({ name: "n", type: "date" }), { kind: "date", cue: "od wyroku" }).value).toBe("2019-03-21");
    expect(applyFieldRule(PL, field({ name: "n", type: "date" }), { kind: "date" }).value).toBe("2019-10-17");
    expect(applyFieldRule(PL, field({ name: "n", type: "number" }), { kind: "number", cue: "kwotę" }).value).toBe(738);
    expect(applyFieldRule(PL, field({ name: "n", type: "integer" }), { kind: "number", cue: "wymierzył mu karę" }).value).toBe(15);
    expect(applyFieldRule(UK, field({ name: "n", type: "integer" }), { kind: "number", cue: "no such phrase" }).value).toBeNull();
  });

  it("a schema run: rules fill the custom fields, rules-v1 the named ones, and the rest stay null", () => {
    const fields = schemaFieldsSchema().parse([
      { name: "case_number", type: "string" },
      { name: "custody_years", type: "integer", rule: { kind: "regex", pattern: "(\\d+) lat pozbawienia wolności" } },
      { name: "costs_pln", type: "number", rule: { kind: "number", cue: "kwotę" } },
      { name: "lower_court_date", type: "date", rule: { kind: "date", cue: "od wyroku" } },
      { name: "obvious", type: "boolean", rule: { kind: "keywords", keywords: ["oczywiście bezzasadną"] } },
      { name: "motive", type: "string" },
    ]);
    expect(extractWithRules(PL, fields)).toEqual({
      status: "completed",
      model: "rules-v1",
      values: { case_number: "II AKa 145/19", custody_years: 15, costs_pln: 738, lower_court_date: "2019-03-21", obvious: true, motive: null },
    });
  });
});

describe("regular expressions are checked before they are stored and bounded when they run", () => {
  it("refuses what is too long, invalid, or shaped to backtrack catastrophically", () => {
    for (const p of ["(a+)+$", "(a*)*b", "(a|aa)+", "(\\w+\\s?)*$", "((ab)*c)+", "(x+x+){2,}", "(a+){10}", "(.)\\1", "(?<q>.)\\k<q>", "x".repeat(201), "(", "[a-"]) {
      expect([p, regexProblem(p)]).toEqual([p, expect.any(String)]);
    }
    for (const p of ["(\\d+) lat", "(?:lat|years)", "([A-Z]+ ?){1}", "contrary to (section \\d+)", "a{2,5}", "(ab)?c", "[(+*]+"]) {
      expect([p, regexProblem(p)]).toEqual([p, null]);
    }
  });

  it("the schema refuses a bad rule with a message naming it, and a rule that cannot fill the field's type", () => {
    const bad = schemaFieldSchema().safeParse({ name: "x", type: "string", rule: { kind: "regex", pattern: "(a+)+" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["rule", "pattern"], message: expect.stringMatching(/^the regular expression may not repeat a group/) });
    const wrongType = schemaFieldSchema().safeParse({ name: "x", type: "boolean", rule: { kind: "date" } });
    expect(wrongType.error?.issues[0]).toMatchObject({ path: ["rule", "kind"], message: "a date rule cannot fill a boolean field" });
    expect(schemaFieldSchema().safeParse({ name: "x", type: "integer", rule: { kind: "number" } }).success).toBe(false); // a number needs its cue
  });

  it("a pattern that still backtracks too long is stopped by the time bound, and the document says why", () => {
    // Polynomial, not refused by the shape check: adjacent overlapping repetitions over a long run of one letter.
    const slow = "a*a*a*a*a*b";
    expect(regexProblem(slow)).toBeNull();
    const text = "a".repeat(3000);
    expect(() => regexMatches(slow, false, text, 50)).toThrow(/timed out/);
    const out = extractWithRules(text, [field({ name: "x", type: "string", rule: { kind: "regex", pattern: slow } })]);
    expect(out.status).toBe("failed");
    expect(out.status === "failed" && out.error).toMatch(/^a field's rule could not run: x: the regular expression took longer than \d+ ms$/);
  });
});
