/**
 * Which fields of a schema the rules extractor (no model) can fill, declared before a job runs so that a field rules
 * cannot read is never shown as a blank value of a finished job:
 *   - the base schema's fields and the typed sentence numbers: yes (rules-v1 and lib/extraction/sentence-numbers);
 *   - a custom field with a rule of its own (regex, keywords, date or number after a cue): yes;
 *   - a custom field named like a value rules-v1 reads (case_number, judges, decision_date, …) in a type that value
 *     fits: yes (the rules extractor fills it by name);
 *   - any other custom field: no — it needs a model.
 */
import { BASE_FIELDS } from "@/lib/schema/fields";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { RULES_FIELDS } from "./rules/extract";

export type FillSource = "base" | "sentence" | "rules_name" | "custom_rule";

export interface FieldFillability {
  name: string;
  /** The field as a person reads it (registry label, else the name in words). */
  label: string;
  /** Whether rules mode can fill it. */
  rules: boolean;
  source: FillSource | null;
}

/** The field types a rules-v1 value fits by name (see extract-document.ts `fit`). */
const NAME_TYPES: Record<(typeof RULES_FIELDS)[number], readonly SchemaField["type"][]> = {
  case_number: ["string", "string[]"],
  neutral_citation: ["string", "string[]"],
  court: ["string", "string[]"],
  judges: ["string", "string[]"],
  decision_date: ["string", "string[]", "date"],
  hearing_date: ["string", "string[]", "date"],
  appellant: ["string", "string[]", "enum", "enum[]"],
  defence_representative: ["string", "string[]"],
  prosecution_representative: ["string", "string[]"],
  offences: ["string", "string[]"],
  sentences: ["string", "string[]"],
  outcome: ["string", "string[]", "enum", "enum[]"],
};

/** Whether rules-v1 fills a custom field by its name alone. */
export function filledByName(f: Pick<SchemaField, "name" | "type">): boolean {
  return Object.hasOwn(NAME_TYPES, f.name) && NAME_TYPES[f.name as keyof typeof NAME_TYPES].includes(f.type);
}

/** "victim_age_band" → "Victim age band". */
export function nameInWords(name: string): string {
  const words = name.replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const REGISTRY = new Map([...BASE_FIELDS, ...SENTENCE_FIELDS].map((f) => [f.name, f]));

/** The fillability of every field of a job's schema (`base`: the built-in base schema). */
export function rulesFillability(fields: readonly SchemaField[], base: boolean): FieldFillability[] {
  return fields.map((f) => {
    const known = base ? REGISTRY.get(f.name) : undefined;
    if (known) return { name: f.name, label: known.label.en, rules: true, source: SENTENCE_FIELDS.includes(known) ? "sentence" : "base" };
    const label = nameInWords(f.name);
    if (f.rule) return { name: f.name, label, rules: true, source: "custom_rule" };
    if (filledByName(f)) return { name: f.name, label, rules: true, source: "rules_name" };
    return { name: f.name, label, rules: false, source: null };
  });
}

/** The fields of a job that only a model can fill (none in model mode). */
export function fieldsNeedingModel(fields: readonly SchemaField[], base: boolean, mode: "rules" | "model"): FieldFillability[] {
  return mode === "model" ? [] : rulesFillability(fields, base).filter((f) => !f.rules);
}
