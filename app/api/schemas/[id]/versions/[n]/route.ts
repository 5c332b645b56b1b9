import { withRoute } from "@/lib/api/route";
import { getVersion, schemaId, versionNumber } from "@/lib/backend/schemas/schemas";

export const dynamic = "force-dynamic";

/** GET /api/schemas/{id}/versions/{n}: one version (number, fields, json_schema, note, created_at, created_by). */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => getVersion(db, schemaId(params.id), versionNumber(params.n)));
