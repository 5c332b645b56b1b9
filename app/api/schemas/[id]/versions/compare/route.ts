import { withRoute } from "@/lib/api/route";
import { compareVersions, schemaId } from "@/lib/backend/schemas/schemas";
import { compareVersionsQuery } from "@/lib/schema/requests/schemas";

export const dynamic = "force-dynamic";

/** GET /api/schemas/{id}/versions/compare?a=&b= → {added, removed, changed} fields from version a to version b. */
export const GET = withRoute({ auth: "user", query: compareVersionsQuery() }, async ({ params, query, db }) =>
  compareVersions(db, schemaId(params.id), query.a, query.b),
);
