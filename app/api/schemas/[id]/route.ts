import { withRoute } from "@/lib/api/route";
import { BASE_SCHEMA_ID, baseSchema, deleteSchema, getSchema, schemaId, updateSchema } from "@/lib/backend/schemas/schemas";
import { patchSchemaRequest } from "@/lib/schema/requests/schemas";

export const dynamic = "force-dynamic";

/**
 * GET /api/schemas/{id}: the caller's schema with its fields and JSON Schema form, else 404 SCHEMA_NOT_FOUND (D-30);
 * `base` is the built-in base schema (read-only).
 */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) =>
  params.id === BASE_SCHEMA_ID ? baseSchema() : getSchema(db, schemaId(params.id)),
);

/** PATCH /api/schemas/{id} {name?, description?, fields?, note?}: every change creates a new version. */
export const PATCH = withRoute({ auth: "user", body: patchSchemaRequest() }, async ({ params, body, db }) =>
  updateSchema(db, schemaId(params.id), body),
);

/** DELETE /api/schemas/{id} → 204 (its versions go with it). */
export const DELETE = withRoute({ auth: "user" }, async ({ params, db }) => {
  await deleteSchema(db, schemaId(params.id));
  return new Response(null, { status: 204 });
});
