/**
 * Base-schema extraction: the built-in base schema as extraction fields, the rules-v1 reading of it,
 * and the write of one judgment's result through the promotion module (lib/schema/promote.ts, never a second converter).
 * The base_ columns' updated_at change is what the incremental search sync picks up.
 */
import type pg from "pg";
import { BASE_FIELDS, BASE_SCHEMA_KEY, BASE_SCHEMA_VERSION, type FieldDef } from "@/lib/schema/fields";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import { promoteExtraction } from "@/lib/schema/promote";
import { extractRules, extractRulesSentenceNumbers, RULES_MODEL } from "@/lib/extraction/rules";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import type { ExtractionOutcome } from "@/lib/backend/schemas/extract-document";

function fieldType(f: FieldDef): Pick<SchemaField, "type" | "enum_values"> {
  const values = f.enumValues?.map((v) => v.value);
  switch (f.type) {
    case "text":
      return values?.length ? { type: "enum", enum_values: values } : { type: "string" };
    case "text[]":
      return values?.length ? { type: "enum[]", enum_values: values } : { type: "string[]" };
    case "boolean":
      return { type: "boolean" };
    case "integer":
      return { type: "integer" };
    case "numeric":
      return { type: "number" };
    default:
      return { type: "date" };
  }
}

/**
 * The base schema's 51 fields and the 15 sentence numbers in the shape of a user schema (all optional: a judgment
 * rarely states every one); the model path reads the same descriptions, so it can fill the sentence numbers too.
 */
export function baseSchemaFields(): SchemaField[] {
  return [...BASE_FIELDS, ...SENTENCE_FIELDS].map((f) => ({ name: f.name, description: f.description, required: false, ...fieldType(f) }));
}

export const BASE_JOB_SCHEMA = { name: "Base schema", key: BASE_SCHEMA_KEY, version: BASE_SCHEMA_VERSION };

/** rules-v1 over the base schema: the fields rules read reliably, every other base field null. */
export function extractBaseWithRules(text: string): ExtractionOutcome {
  const r = extractRules(text);
  const raw: Record<string, unknown> = Object.fromEntries([...BASE_FIELDS, ...SENTENCE_FIELDS].map((f) => [f.name, null]));
  const sentence = extractRulesSentenceNumbers(text, r);
  Object.assign(raw, {
    neutral_citation_number: r.neutral_citation,
    date_of_appeal_court_judgment: r.decision_date,
    appeal_court_judges_names: r.judges.length ? r.judges.map((j) => j.name).join(", ") : null,
    offender_representative_name: r.defence_representative,
    crown_attorney_general_representative_name: r.prosecution_representative,
    convict_offences: r.offences.length ? r.offences : null,
    sentences_received: r.sentences.length ? r.sentences : null,
    appellant: r.appellant,
    // rules-v1's outcome is already a base-schema value (outcome_dismissed_or_refused, …).
    appeal_outcome: r.outcome ? [r.outcome] : null,
    ...sentence.values,
    // Where each sentence number was read (offsets into the text): kept with the raw result, not a typed column.
    sentence_spans: Object.keys(sentence.spans).length ? sentence.spans : null,
  });
  return { status: "completed", values: raw, model: RULES_MODEL };
}

/**
 * Write one judgment's base extraction: the raw result, the promoted typed columns, and the status fields. A failure
 * records the reason and leaves the typed columns as they were.
 */
export async function writeBaseExtraction(db: pg.PoolClient | pg.Pool, judgmentId: string, outcome: ExtractionOutcome): Promise<void> {
  if (outcome.status === "failed") {
    await db.query(
      `update public.judgments set base_extraction_status = 'failed', base_extraction_error = $2, base_extraction_model = $3,
         base_extracted_at = now(), updated_at = now() where id = $1`,
      [judgmentId, outcome.error.slice(0, 2000), outcome.model],
    );
    return;
  }
  const columns = promoteExtraction(outcome.values);
  const names = Object.keys(columns);
  const sets = names.map((c, i) => `${c} = $${i + 6}`).join(", ");
  await db.query(
    `update public.judgments set ${sets}, base_raw_extraction = $2::jsonb, base_extraction_status = 'completed',
       base_extraction_error = null, base_extraction_model = $3, base_extracted_at = now(), base_schema_key = $4,
       base_schema_version = $5, updated_at = now() where id = $1`,
    [judgmentId, JSON.stringify(outcome.values), outcome.model, BASE_SCHEMA_KEY, BASE_SCHEMA_VERSION, ...names.map((c) => columns[c])],
  );
}
