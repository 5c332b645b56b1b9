/**
 * The JSON Schema form of an extraction schema's fields (draft-07), checked with ajv. The same form
 * validates extracted values: a required field must be present and non-null, an optional one may be null. Dates are a
 * pattern rather than `format: date` so no format plug-in is needed and strict mode stays on.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { ApiError } from "@/lib/errors";
import type { SchemaField } from "@/lib/schema/requests/schemas";

export type JsonSchemaObject = Record<string, unknown>;

const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

function valueSchema(f: SchemaField): JsonSchemaObject {
  switch (f.type) {
    case "string":
      return { type: "string" };
    case "integer":
      return { type: "integer" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "date":
      return { type: "string", pattern: DATE_PATTERN };
    case "enum":
      return { type: "string", enum: f.enum_values ?? [] };
    case "string[]":
      return { type: "array", items: { type: "string" } };
    case "enum[]":
      return { type: "array", items: { type: "string", enum: f.enum_values ?? [] } };
  }
}

/** Optional fields accept null as well (what an extractor answers when a value is absent). */
function nullable(s: JsonSchemaObject): JsonSchemaObject {
  return { anyOf: [s, { type: "null" }] };
}

export function toJsonSchema(fields: SchemaField[], title?: string): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const f of fields) {
    const v = valueSchema(f);
    properties[f.name] = { ...(f.required ? v : nullable(v)), ...(f.description ? { description: f.description } : {}) };
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    ...(title ? { title } : {}),
    type: "object",
    properties,
    required: fields.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false,
  };
}

// One ajv instance; compiled validators are cached by ajv per schema object, ours by its JSON text.
const ajv = new Ajv({ strict: true, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/** Compile (and so validate) a JSON Schema form; 422 SCHEMA_INVALID when ajv refuses it. */
export function compileJsonSchema(schema: JsonSchemaObject): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch (e) {
      throw new ApiError("SCHEMA_INVALID", `The schema is not valid JSON Schema: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (compiled.size > 500) compiled.clear(); // bounded: schemas are few, but never grow without limit
    compiled.set(key, v);
  }
  return v;
}

/** Check extracted values against a schema's JSON form: null when valid, else a readable reason. */
export function validationFailure(schema: JsonSchemaObject, values: unknown): string | null {
  const validate = compileJsonSchema(schema);
  if (validate(values)) return null;
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`).join("; ") || "invalid";
}
