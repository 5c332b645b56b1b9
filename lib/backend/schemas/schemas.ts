/**
 * Extraction schemas with versions over the RPCs of
 * supabase/migrations/20261125160000_extraction_schemas.sql, always with the caller's client: RLS makes another user's
 * schema invisible, which the API answers as a plain 404 SCHEMA_NOT_FOUND (D-30).
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import { schemaFieldSchema, type CreateSchemaRequest, type PatchSchemaRequest, type SchemaField } from "@/lib/schema/requests/schemas";
import { BASE_FIELDS, BASE_SCHEMA_KEY, BASE_SCHEMA_VERSION } from "@/lib/schema/fields";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import { baseSchemaFields } from "@/lib/backend/extraction-jobs/base";
import { compileJsonSchema, toJsonSchema, type JsonSchemaObject } from "./json-schema";

export interface SchemaSummary {
  id: string;
  name: string;
  description: string | null;
  version: number;
  created_at: string;
}

/** GET /api/schemas (the reference shape {schemas, total}, plus the page). */
export interface SchemaPage {
  schemas: SchemaSummary[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** GET/POST/PATCH /api/schemas/{id}. */
export interface ExtractionSchema extends SchemaSummary {
  fields: SchemaField[];
  json_schema: JsonSchemaObject;
  updated_at: string;
}

export interface SchemaVersion {
  number: number;
  name: string;
  description: string | null;
  fields: SchemaField[];
  json_schema: JsonSchemaObject;
  note: string | null;
  created_at: string;
  created_by: string | null;
}

/** GET /api/schemas/{id}/versions. */
export interface SchemaVersionList {
  schema_id: string;
  versions: SchemaVersion[];
  total: number;
}

export interface FieldChange {
  name: string;
  before: SchemaField;
  after: SchemaField;
  /** Which properties differ: type, description, enum_values, required, position. */
  changes: string[];
}

/** GET /api/schemas/{id}/versions/compare?a=&b= */
export interface SchemaComparison {
  schema_id: string;
  a: number;
  b: number;
  added: SchemaField[];
  removed: SchemaField[];
  changed: FieldChange[];
}

// Stored fields were validated on the way in; this parse (not a cast) types them on the way out.
const storedFields = z.array(schemaFieldSchema());
const jsonObject = z.record(z.string(), z.unknown());

const SchemaRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  version: z.number().int(),
  fields: storedFields,
  json_schema: jsonObject,
  created_at: z.string(),
  updated_at: z.string(),
});

const VersionRow = z.object({
  number: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  fields: storedFields,
  json_schema: jsonObject,
  note: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
});

export const schemaNotFound = () => new ApiError("SCHEMA_NOT_FOUND");

/** A path id must be a UUID before any lookup. */
export function schemaId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw new ApiError("INVALID_SCHEMA_ID");
  return raw.toLowerCase();
}

/** A version number in a path: a positive integer, else 404 (no such version). */
export function versionNumber(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) throw new ApiError("SCHEMA_VERSION_NOT_FOUND");
  return Number(raw);
}

/** The fields and their JSON Schema form, compiled with ajv (422 SCHEMA_INVALID if it would not compile). */
function withJsonSchema(fields: SchemaField[], name: string): { fields: SchemaField[]; json_schema: JsonSchemaObject } {
  const json_schema = toJsonSchema(fields, name);
  compileJsonSchema(json_schema);
  return { fields, json_schema };
}

function toSchema(r: unknown): ExtractionSchema {
  const row = SchemaRow.parse(r);
  return { ...row };
}

/** The built-in base schema's id in the schema list and GET /api/schemas/base (read-only: PATCH/DELETE refuse it). */
export const BASE_SCHEMA_ID = "base";
/** When base schema v1 was defined (the judgments table's base_ columns); fixed, so the list entry is stable. */
const BASE_SCHEMA_CREATED_AT = "2026-01-02T00:00:00.000Z";

export function baseSchemaSummary(): SchemaSummary {
  return {
    id: BASE_SCHEMA_ID,
    name: "Base schema",
    description: `Built in and read-only: the ${BASE_FIELDS.length} base fields and ${SENTENCE_FIELDS.length} sentence numbers (${BASE_SCHEMA_KEY} ${BASE_SCHEMA_VERSION}). A user's run keeps its values in the job; only an administrator's run writes the judgments' shared base fields.`,
    version: 1,
    created_at: BASE_SCHEMA_CREATED_AT,
  };
}

/** GET /api/schemas/base: the base schema in the shape of a user's schema. */
export function baseSchema(): ExtractionSchema {
  const summary = baseSchemaSummary();
  const fields = baseSchemaFields();
  return { ...summary, fields, json_schema: toJsonSchema(fields, summary.name), updated_at: summary.created_at };
}

/** One page of the caller's own schemas as list_extraction_schemas answers it (total_count: all the caller's rows). */
export type SchemaListRows = (SchemaSummary & { total_count: number })[];

/**
 * Reads a page of the caller's own schemas under RLS: the web tier's list_extraction_schemas with the caller's client,
 * or the reference API's api_v1_list_extraction_schemas acting as the key's user (lib/backend/api-v1/schemas.ts).
 */
export type SchemaRowSource = (limit: number, offset: number) => Promise<SchemaListRows>;

/** The caller's client's row source (GET /api/schemas). */
function ownSchemaRows(db: DbClient): SchemaRowSource {
  return async (limit, offset) => {
    const { data, error } = await db.rpc("list_extraction_schemas", { p_limit: limit, p_offset: offset });
    if (error) throw fromDatabaseError(error);
    return data;
  };
}

/**
 * GET /api/schemas: the built-in base schema first (row 0 of every user's list), then the caller's own, newest first.
 * The page's window over the combined list maps to the caller's rows shifted by one.
 */
export async function listSchemas(db: DbClient, page: { limit: number; offset: number }): Promise<SchemaPage> {
  return listSchemasFrom(ownSchemaRows(db), page);
}

/** listSchemas over any row source (the same paging whoever reads the rows). */
export async function listSchemasFrom(rowsOf: SchemaRowSource, page: { limit: number; offset: number }): Promise<SchemaPage> {
  const withBase = page.offset === 0;
  const ownOffset = Math.max(0, page.offset - 1);
  const ownLimit = withBase ? page.limit - 1 : page.limit;
  // At least one row is asked for even when the base entry fills the page: its total_count is the caller's count.
  const data = await rowsOf(Math.max(ownLimit, 1), ownOffset);
  let own = Number(data[0]?.total_count ?? 0);
  if (data.length === 0 && ownOffset > 0) {
    // Past the end: the window function has no row to report the total on, so count the first page.
    const first = await rowsOf(1, 0);
    own = Number(first[0]?.total_count ?? 0);
  }
  const rows = data.slice(0, ownLimit).map(({ total_count: _t, ...s }) => s);
  const schemas = withBase ? [baseSchemaSummary(), ...rows] : rows;
  const total = own + 1;
  return { schemas, total, limit: page.limit, offset: page.offset, has_more: page.offset + schemas.length < total };
}

export async function getSchema(db: DbClient, id: string): Promise<ExtractionSchema> {
  const { data, error } = await db.rpc("get_extraction_schema", { p_schema_id: id });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (!row) throw schemaNotFound();
  return toSchema(row);
}

export async function createSchema(db: DbClient, body: CreateSchemaRequest): Promise<ExtractionSchema> {
  const form = withJsonSchema(body.fields, body.name);
  const { data, error } = await db.rpc("create_extraction_schema", {
    p_name: body.name,
    p_description: body.description ?? null,
    p_fields: form.fields,
    p_json_schema: jsonArg(form.json_schema),
    ...(body.note ? { p_note: body.note } : {}),
  });
  if (error) throw fromDatabaseError(error);
  return toSchema(data);
}

async function writeVersion(
  db: DbClient,
  id: string,
  next: { name: string; description: string | null; fields: SchemaField[] },
  note: string | null,
): Promise<ExtractionSchema> {
  const form = withJsonSchema(next.fields, next.name);
  const { data, error } = await db.rpc("update_extraction_schema", {
    p_schema_id: id,
    p_name: next.name,
    p_description: next.description,
    p_fields: form.fields,
    p_json_schema: jsonArg(form.json_schema),
    ...(note ? { p_note: note } : {}),
  });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (!row) throw schemaNotFound();
  return toSchema(row);
}

/** PATCH: every change creates a version (the note says what changed unless the caller gave one). */
export async function updateSchema(db: DbClient, id: string, patch: PatchSchemaRequest): Promise<ExtractionSchema> {
  const current = await getSchema(db, id);
  const next = {
    name: patch.name ?? current.name,
    description: patch.description !== undefined ? patch.description : current.description,
    fields: patch.fields ?? current.fields,
  };
  const changed = (["name", "description", "fields"] as const).filter((k) => patch[k] !== undefined);
  return writeVersion(db, id, next, patch.note ?? `changed ${changed.join(", ")}`);
}

export async function deleteSchema(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_extraction_schema", { p_schema_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw schemaNotFound();
}

export async function listVersions(db: DbClient, id: string): Promise<SchemaVersionList> {
  await getSchema(db, id); // 404 before an empty list could hide a foreign id
  const { data, error } = await db.rpc("list_schema_versions", { p_schema_id: id });
  if (error) throw fromDatabaseError(error);
  const versions = data.map((v) => VersionRow.parse(v));
  return { schema_id: id, versions, total: versions.length };
}

async function versions(db: DbClient, id: string, numbers: number[]): Promise<Map<number, SchemaVersion>> {
  await getSchema(db, id);
  const { data, error } = await db.rpc("get_schema_versions", { p_schema_id: id, p_numbers: numbers });
  if (error) throw fromDatabaseError(error);
  const out = new Map<number, SchemaVersion>();
  for (const v of data) {
    const row = VersionRow.parse(v);
    out.set(row.number, row);
  }
  for (const n of numbers) if (!out.has(n)) throw new ApiError("SCHEMA_VERSION_NOT_FOUND", `Version ${n} of this schema does not exist.`);
  return out;
}

export async function getVersion(db: DbClient, id: string, n: number): Promise<SchemaVersion> {
  const v = (await versions(db, id, [n])).get(n);
  if (!v) throw new ApiError("SCHEMA_VERSION_NOT_FOUND");
  return v;
}

/** Added / removed / changed fields from version a to version b, matched by name. */
export function diffFields(a: SchemaField[], b: SchemaField[]): Pick<SchemaComparison, "added" | "removed" | "changed"> {
  const before = new Map(a.map((f, i) => [f.name, { f, i }]));
  const after = new Map(b.map((f, i) => [f.name, { f, i }]));
  const added = b.filter((f) => !before.has(f.name));
  const removed = a.filter((f) => !after.has(f.name));
  const changed: FieldChange[] = [];
  for (const [name, { f: x, i }] of before) {
    const y = after.get(name);
    if (!y) continue;
    const changes: string[] = [];
    if (x.type !== y.f.type) changes.push("type");
    if (x.description !== y.f.description) changes.push("description");
    if (JSON.stringify(x.enum_values ?? null) !== JSON.stringify(y.f.enum_values ?? null)) changes.push("enum_values");
    if (x.required !== y.f.required) changes.push("required");
    if (JSON.stringify(x.rule ?? null) !== JSON.stringify(y.f.rule ?? null)) changes.push("rule");
    if (i !== y.i) changes.push("position");
    if (changes.length) changed.push({ name, before: x, after: y.f, changes });
  }
  return { added, removed, changed };
}

export async function compareVersions(db: DbClient, id: string, qa: number | undefined, qb: number | undefined): Promise<SchemaComparison> {
  const b = qb ?? (await getSchema(db, id)).version;
  const a = qa ?? Math.max(1, b - 1);
  const found = await versions(db, id, a === b ? [a] : [a, b]);
  const va = found.get(a);
  const vb = found.get(b);
  if (!va || !vb) throw new ApiError("SCHEMA_VERSION_NOT_FOUND");
  return { schema_id: id, a, b, ...diffFields(va.fields, vb.fields) };
}

/** POST .../versions/{n}/rollback: a new version equal to n (history is never rewritten). */
export async function rollbackToVersion(db: DbClient, id: string, n: number): Promise<ExtractionSchema> {
  const v = await getVersion(db, id, n);
  return writeVersion(db, id, { name: v.name, description: v.description, fields: v.fields }, `rollback to version ${n}`);
}
