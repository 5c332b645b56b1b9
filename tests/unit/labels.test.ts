import { describe, expect, it } from "vitest";
import { ALL_FIELDS, BASE_FIELDS, CORE_FILTER_KEYS, GROUPS } from "@/lib/schema";
import { JUDGMENT_COLUMN_LABELS, SNAKE_CASE, codeLabel, fieldLabel, humanizeCode, matchingFactorLabel, valueLabelOf } from "@/lib/schema/labels";
import { assistantToolsEn, assistantToolsPl } from "@/lib/i18n/areas/assistant-tools";
import { readFileSync } from "node:fs";
import path from "node:path";

const LOCALES = ["en", "pl"] as const;
// The repository's copy of ../shared/data/base-schema-fields.json (see tests/unit/registry.test.ts).
const shared = JSON.parse(readFileSync(path.resolve(__dirname, "..", "fixtures", "base-schema-fields.json"), "utf8")) as {
  fields: { name: string; column: string; enum_values?: unknown }[];
};

function readable(label: string | undefined): boolean {
  return typeof label === "string" && label.trim().length > 0 && !SNAKE_CASE.test(label);
}

describe("the label dictionary (field registry)", () => {
  it("every field has an EN and a PL label, none a snake_case code", () => {
    const bad = [...ALL_FIELDS.map((f) => ({ name: f.name, label: f.label })), ...CORE_FILTER_KEYS.map((k) => ({ name: k.key, label: k.label }))].filter(
      ({ label }) => !LOCALES.every((l) => readable(label[l])),
    );
    expect(bad).toEqual([]);
    for (const g of GROUPS) for (const l of LOCALES) expect(readable(g[l]), g.id).toBe(true);
    for (const [c, label] of Object.entries(JUDGMENT_COLUMN_LABELS)) for (const l of LOCALES) expect(readable(label[l]), c).toBe(true);
  });

  it("every enum value of every registry field has an EN and a PL label, none a snake_case code or the code itself", () => {
    const bad: string[] = [];
    let values = 0;
    for (const f of ALL_FIELDS) {
      for (const o of f.enumValues ?? []) {
        values++;
        for (const l of LOCALES) if (!readable(o[l]) || o[l] === o.value) bad.push(`${f.name}.${o.value}.${l}`);
        expect(valueLabelOf(f.name, o.value, "en")).toBe(o.en);
        expect(valueLabelOf(f.column, o.value, "pl")).toBe(o.pl);
      }
    }
    expect(bad).toEqual([]);
    expect(values).toBeGreaterThan(50);
  });

  it("covers the 51 fields of the shared base schema, by name and by column", () => {
    expect(shared.fields).toHaveLength(51);
    for (const f of shared.fields) for (const l of LOCALES) expect(readable(fieldLabel(f.name, l)), f.name).toBe(true);
    expect(BASE_FIELDS).toHaveLength(51);
    for (const f of BASE_FIELDS) {
      for (const l of LOCALES) {
        expect(fieldLabel(f.name, l)).toBe(f.label[l]);
        expect(fieldLabel(f.column, l)).toBe(f.label[l]);
      }
    }
  });

  it("a code the registry lacks is humanised, never shown raw", () => {
    expect(codeLabel("outcome_dismissed_or_refused", "en")).toBe("Dismissed or leave refused");
    expect(SNAKE_CASE.test(codeLabel("outcome_dismissed_or_refused", "en"))).toBe(false);
    expect(SNAKE_CASE.test(codeLabel("outcome_dismissed_or_refused", "pl"))).toBe(false);
    expect(humanizeCode("some_unknown_code")).toBe("Some unknown code");
    expect(fieldLabel("what_ancilliary_orders", "en")).toBe("Ancillary orders");
    expect(fieldLabel("not_a_field", "pl")).toBe("Not a field");
    // Free text passes through; a bare code is humanised.
    expect(valueLabelOf("convict_offences", "robbery", "en")).toBe("robbery");
    expect(valueLabelOf("convict_offences", "some_code", "en")).toBe("Some code");
    expect(valueLabelOf("jurisdiction", "PL", "pl")).toBe("Polska");
  });

  it("precedent factors name the outcome in words, in both languages", () => {
    expect(matchingFactorLabel("outcome: outcome_dismissed_or_refused", assistantToolsEn.factorKinds, "en")).toBe("outcome: Dismissed or leave refused");
    expect(matchingFactorLabel("outcome: outcome_dismissed_or_refused", assistantToolsPl.factorKinds, "pl")).toBe("rozstrzygnięcie: Apelacja nieuwzględniona");
    expect(matchingFactorLabel("offence: kradzież z włamaniem", assistantToolsPl.factorKinds, "pl")).toBe("przestępstwo: kradzież z włamaniem");
    expect(matchingFactorLabel("same provision and offence", assistantToolsEn.factorKinds, "en")).toBe("same provision and offence");
  });
});
