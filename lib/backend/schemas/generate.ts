/**
 * POST /api/schemas/generate: a model drafts a schema's fields from a researcher's description,
 * optionally looking at the opening of one judgment. Model mode only: without a model the route answers 503
 * LLM_NOT_CONFIGURED (requireLanguageModel) and nothing is invented. The draft is not stored; the caller reviews it
 * in the field editor and saves it with POST /api/schemas. Its fields pass the same zod and ajv checks as a save.
 */
import { generateObject, type LanguageModel } from "ai";
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { documentDetail } from "@/lib/backend/documents";
import type { Identity } from "@/lib/backend/identity";
import { isLlmTimeout, llmCallSettings } from "@/lib/llm/call";
import { requireLanguageModel } from "@/lib/llm/provider";
import { SCHEMA_FIELD_TYPES, schemaFieldsSchema, type SchemaField } from "@/lib/schema/requests/schemas";
import { toJsonSchema, compileJsonSchema, type JsonSchemaObject } from "./json-schema";

/** What the model is asked for: plain, provider-friendly JSON (no refinements; nulls instead of absent keys). */
const modelOutput = z.object({
  name: z.string(),
  description: z.string(),
  fields: z.array(
    z.object({
      name: z.string(),
      type: z.enum(SCHEMA_FIELD_TYPES),
      description: z.string(),
      enum_values: z.array(z.string()).nullable(),
      required: z.boolean(),
    }),
  ),
});

export interface GeneratedSchema {
  schema: JsonSchemaObject;
  name: string;
  description: string;
  fields: SchemaField[];
  mode: "model";
}

/** How much of the example judgment the model sees: its opening holds the parties, court and charges. */
const EXAMPLE_CHARS = 6000;

const SYSTEM = [
  "You design extraction schemas for criminal appeal judgments (Polish and England & Wales).",
  "Answer with a schema name, a one-sentence description and a list of fields.",
  "Field names are snake_case English. Types: string, integer, number, boolean, date (YYYY-MM-DD), enum, string[], enum[].",
  "Give enum_values only for enum and enum[] fields (null otherwise). Mark a field required only if every judgment has it.",
].join("\n");

export async function generateSchema(
  input: { description: string; exampleText?: string | null },
  deps: { model?: LanguageModel; timeoutMs?: number } = {},
): Promise<GeneratedSchema> {
  const model = deps.model ?? requireLanguageModel();
  const example = input.exampleText ? `\n\nAn example judgment (opening):\n${input.exampleText.slice(0, EXAMPLE_CHARS)}` : "";
  let object: z.infer<typeof modelOutput>;
  // The llm module's settings: LLM_TIMEOUT_MS (or the caller's), retries on 429/5xx, telemetry when traced.
  const settings = llmCallSettings({ timeoutMs: deps.timeoutMs, functionId: "schemas.generate" });
  try {
    ({ object } = await generateObject({
      model,
      schema: modelOutput,
      schemaName: "extraction_schema",
      system: SYSTEM,
      prompt: `What the researcher wants to extract:\n${input.description}${example}`,
      ...settings,
    }));
  } catch (e) {
    if (isLlmTimeout(e, settings)) {
      throw new ApiError("UPSTREAM_TIMEOUT", "The language model took too long to answer.");
    }
    throw new ApiError("SCHEMA_GENERATION_FAILED");
  }
  const fields = schemaFieldsSchema().safeParse(
    object.fields.map((f) => ({ ...f, enum_values: f.type === "enum" || f.type === "enum[]" ? (f.enum_values ?? undefined) : undefined })),
  );
  if (!fields.success) {
    const issue = fields.error.issues[0];
    throw new ApiError("SCHEMA_GENERATION_FAILED", `The model's schema was not valid: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}.`);
  }
  const schema = toJsonSchema(fields.data, object.name);
  compileJsonSchema(schema);
  return { schema, name: object.name.trim().slice(0, 255) || "Generated schema", description: object.description, fields: fields.data, mode: "model" };
}

/** The route's work: 503 before anything is read when there is no model; the example is read with the caller's rights. */
export async function generateSchemaForCaller(
  body: { description: string; example_document_id?: string },
  identity: Identity,
): Promise<GeneratedSchema> {
  const model = requireLanguageModel();
  const exampleText = body.example_document_id ? (await documentDetail(body.example_document_id, identity)).full_text : null;
  return generateSchema({ description: body.description, exampleText }, { model });
}
