import { withRoute } from "@/lib/api/route";
import { listVersions, schemaId } from "@/lib/backend/schemas/schemas";

export const dynamic = "force-dynamic";

/** GET /api/schemas/{id}/versions → {schema_id, versions (newest first), total}. */
export const GET = withRoute({ auth: "user" }, async ({ params, db }) => listVersions(db, schemaId(params.id)));
