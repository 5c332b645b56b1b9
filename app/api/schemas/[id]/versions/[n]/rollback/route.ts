import { withRoute } from "@/lib/api/route";
import { rollbackToVersion, schemaId, versionNumber } from "@/lib/backend/schemas/schemas";

export const dynamic = "force-dynamic";

/** POST /api/schemas/{id}/versions/{n}/rollback → the schema at a new version equal to n (history is kept). */
export const POST = withRoute({ auth: "user" }, async ({ params, db }) => rollbackToVersion(db, schemaId(params.id), versionNumber(params.n)));
