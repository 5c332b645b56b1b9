/**
 * The output schema of the NL-filter translator, derived from the field registry (lib/schema, D-05) — no key, control
 * or enum value is listed here by hand. Which keys the model may fill:
 *
 * - jurisdiction (PL/UK), decision_date and date_of_appeal_court_judgment (core keys);
 * - every base field accepted by the filter functions whose values the model can state without knowing the corpus:
 *   enum_multi with a fixed value set (values as JSON-schema enums), boolean_tri, numeric_range and substring.
 *
 * Left out on purpose: tag_array fields and court_name (open vocabularies matched as exact strings: a guessed value
 * would silently narrow the cohort to nothing; such words belong in text_query, where full-text search finds them),
 * collection_ids (a question cannot name a collection id), and case_type/court_level, which are not filter keys at
 * all and must never appear (spec: those UK columns are wrong for criminal appeals).
 *
 * Every property is required and nullable so the JSON schema is valid for OpenAI strict structured outputs; the
 * validator accepts missing keys too (servers without strict mode omit them).
 */
import { z } from "zod";
import { CORE_FILTER_KEYS, EXTRACTED_FIELDS, type Control, type EnumOption } from "@/lib/schema";

export type NlControl = Extract<Control, "enum_multi" | "boolean_tri" | "numeric_range" | "date_range" | "substring">;

export interface NlField {
  key: string;
  control: NlControl;
  /** Fixed value set (enum_multi), else null. */
  values: readonly string[] | null;
  /** One line for the model: what the field holds and, for enums, what each value means in English and Polish. */
  description: string;
}

/** Keys the translator must never output (spec: nl-filter; Dated data observations). */
export const NEVER_OUTPUT_KEYS = ["case_type", "court_level"] as const;

/** Core keys offered to the model. court_name and collection_ids are not (see the module comment). */
const CORE_KEYS_OFFERED = new Set(["jurisdiction", "decision_date", "date_of_appeal_court_judgment"]);

const NL_CONTROLS = new Set<Control>(["enum_multi", "boolean_tri", "numeric_range", "date_range", "substring"]);

function enumDescription(options: readonly EnumOption[]): string {
  return options.map((o) => `${o.value} = ${o.en} / ${o.pl}`).join("; ");
}

let cached: NlField[] | null = null;

/** The keys the model may fill, core keys first, then base fields in registry order. */
export function nlFields(): NlField[] {
  if (cached) return cached;
  const out = new Map<string, NlField>();
  for (const core of CORE_FILTER_KEYS) {
    if (!CORE_KEYS_OFFERED.has(core.key)) continue;
    const control = core.control as NlControl;
    out.set(core.key, {
      key: core.key,
      control,
      values: core.enumValues ? [...core.enumValues] : null,
      description: `${core.label.en} (${core.label.pl}). ${core.description}`,
    });
  }
  // The base fields and the typed sentence numbers (sentence_custody_months, ...), which the filter routes accept too.
  for (const f of EXTRACTED_FIELDS) {
    if (out.has(f.name) || !f.rpcFilter || !NL_CONTROLS.has(f.control)) continue;
    if (f.control === "enum_multi" && !f.enumValues) continue;
    if ((NEVER_OUTPUT_KEYS as readonly string[]).includes(f.name)) continue;
    const values = f.enumValues ? f.enumValues.map((o) => o.value) : null;
    const base = `${f.label.en} (${f.label.pl}). ${f.description}`;
    out.set(f.name, {
      key: f.name,
      control: f.control as NlControl,
      values,
      description: f.enumValues ? `${base} Values: ${enumDescription(f.enumValues)}.` : base,
    });
  }
  cached = [...out.values()];
  return cached;
}

const isoDate = z.string().describe("YYYY-MM-DD");

/** Zod type of one key's value as the model writes it (null = no condition on this key). */
function valueSchema(field: NlField, mode: "strict" | "lenient"): z.ZodType {
  const opt = <T extends z.ZodType>(t: T) => (mode === "strict" ? t.nullable() : t.nullish());
  switch (field.control) {
    case "enum_multi": {
      const values = field.values ?? [];
      const item = values.length > 0 ? z.enum(values as [string, ...string[]]) : z.string();
      return opt(z.array(item)).describe(field.description);
    }
    case "boolean_tri":
      return opt(z.boolean()).describe(field.description);
    case "numeric_range":
      return opt(z.object({ min: opt(z.number()), max: opt(z.number()) })).describe(field.description);
    case "date_range":
      return opt(z.object({ from: opt(isoDate), to: opt(isoDate) })).describe(field.description);
    case "substring":
      return opt(z.string()).describe(field.description);
  }
}

function buildSchema(mode: "strict" | "lenient") {
  const shape: Record<string, z.ZodType> = {};
  for (const f of nlFields()) shape[f.key] = valueSchema(f, mode);
  const textQuery = z
    .string()
    .describe("Words of the question that are not expressed by a filter key (topics, offences, facts), or null.");
  return z.object({
    filters: z.object(shape).describe("Conditions on the judgments; null for every key the question does not mention."),
    text_query: mode === "strict" ? textQuery.nullable() : textQuery.nullish(),
  });
}

let strictSchema: ReturnType<typeof buildSchema> | null = null;
let lenientSchema: ReturnType<typeof buildSchema> | null = null;

/** The schema sent to the model (every key required, nullable; no extra keys). */
export function nlOutputSchema() {
  strictSchema ??= buildSchema("strict");
  return strictSchema;
}

/** The schema the model's answer is checked with: the same values, but missing keys are accepted as null. */
export function nlLenientSchema() {
  lenientSchema ??= buildSchema("lenient");
  return lenientSchema;
}
