import { withRoute } from "@/lib/api/route";
import { createSchema, listSchemas } from "@/lib/backend/schemas/schemas";
import { createSchemaRequest } from "@/lib/schema/requests/schemas";
import { PageQuerySchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/schemas?limit=&offset= → {schemas: [{id, name, description, version, created_at}], total, …}: the built-in base schema (id "base", read-only) first, then the caller's own (RLS). */
export const GET = withRoute({ auth: "user", query: PageQuerySchema }, async ({ db, query }) => listSchemas(db, query));

/** POST /api/schemas {name, description?, fields, note?} → 201 the schema at version 1 (fields checked by zod and ajv). */
export const POST = withRoute({ auth: "user", body: createSchemaRequest() }, async ({ body, db }) =>
  Response.json(await createSchema(db, body), { status: 201 }),
);
