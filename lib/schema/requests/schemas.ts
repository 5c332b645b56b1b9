/**
 * Request schemas of extraction schemas, shared by the routes and the /schemas field editor (the
 * form is validated with the same zod schema as the API). Limits come from config (SCHEMA_MAX_FIELDS,
 * SCHEMA_MAX_ENUM_VALUES), read when a schema is built.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";
import { uuidSchema } from "../uuid";
import { fieldRuleSchema, RULE_TYPES } from "../field-rules";

export const SCHEMA_FIELD_TYPES = ["string", "integer", "number", "boolean", "date", "enum", "string[]", "enum[]"] as const;
export type SchemaFieldType = (typeof SCHEMA_FIELD_TYPES)[number];

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * One field: {name (snake_case), type, description, enum_values? (enum and enum[] only), required, rule?}. `rule` is how
 * the rules extractor fills the field without a model (lib/schema/field-rules.ts); without one a custom field needs a
 * model.
 */
export const schemaFieldSchema = () =>
  z
    .strictObject({
      name: safeText().min(1).max(64).regex(SNAKE_CASE, "must be snake_case (a-z, 0-9, single underscores)"),
      type: z.enum(SCHEMA_FIELD_TYPES),
      description: safeText().max(1000).default(""),
      enum_values: z.array(safeText().trim().min(1).max(200)).min(1).max(config().SCHEMA_MAX_ENUM_VALUES).optional(),
      required: z.boolean().default(false),
      rule: fieldRuleSchema().optional(),
    })
    .superRefine((f, ctx) => {
      if (f.rule && !RULE_TYPES[f.rule.kind].includes(f.type)) {
        ctx.addIssue({ code: "custom", path: ["rule", "kind"], message: `a ${f.rule.kind} rule cannot fill a ${f.type} field` });
      }
      const isEnum = f.type === "enum" || f.type === "enum[]";
      if (isEnum && !f.enum_values) ctx.addIssue({ code: "custom", path: ["enum_values"], message: "an enum field needs enum_values", params: { messageKey: "enumNeedsValues" } });
      if (!isEnum && f.enum_values) ctx.addIssue({ code: "custom", path: ["enum_values"], message: "only enum fields take enum_values", params: { messageKey: "enumValuesOnlyForEnum" } });
      if (f.enum_values && new Set(f.enum_values).size !== f.enum_values.length) {
        ctx.addIssue({ code: "custom", path: ["enum_values"], message: "enum values must be unique", params: { messageKey: "enumValuesUnique" } });
      }
    });
export type SchemaField = z.infer<ReturnType<typeof schemaFieldSchema>>;

/** The field list: 1 to SCHEMA_MAX_FIELDS fields with unique names. */
export const schemaFieldsSchema = () =>
  z
    .array(schemaFieldSchema())
    .min(1)
    .max(config().SCHEMA_MAX_FIELDS)
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((f, i) => {
        if (seen.has(f.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate field name "${f.name}"`, params: { messageKey: "duplicateName", value: f.name } });
        seen.add(f.name);
      });
    });

const name = () => safeText().trim().min(1).max(255);
const description = () => safeText().max(2000).nullable();
const note = () => safeText().max(500).optional();

/** POST /api/schemas */
export const createSchemaRequest = () =>
  z.strictObject({ name: name(), description: description().optional(), fields: schemaFieldsSchema(), note: note() });
export type CreateSchemaRequest = z.infer<ReturnType<typeof createSchemaRequest>>;

/** PATCH /api/schemas/{id}: any of name, description, fields; every change is a new version. */
export const patchSchemaRequest = () =>
  z
    .strictObject({ name: name().optional(), description: description().optional(), fields: schemaFieldsSchema().optional(), note: note() })
    .refine((p) => p.name !== undefined || p.description !== undefined || p.fields !== undefined, {
      message: "send at least one of name, description, fields",
      params: { messageKey: "atLeastOne" },
    });
export type PatchSchemaRequest = z.infer<ReturnType<typeof patchSchemaRequest>>;

/** GET /api/schemas/{id}/versions/compare?a=&b= (b defaults to the current version, a to the one before b). */
export const compareVersionsQuery = () =>
  z.strictObject({ a: z.coerce.number().int().min(1).optional(), b: z.coerce.number().int().min(1).optional() });

/** POST /api/schemas/generate */
export const generateSchemaRequest = () =>
  z.strictObject({ description: safeText().trim().min(10).max(4000), example_document_id: uuidSchema.optional() });
