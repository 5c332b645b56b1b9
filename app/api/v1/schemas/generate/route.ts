import { withRoute } from "@/lib/api/route";
import { notImplemented } from "@/lib/api/v1";
import { V1GenerateSchemaBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/schemas/generate: not built yet → 501 after the body is checked (a bad body is still 422). */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1GenerateSchemaBody }, () => notImplemented("Schema generation"));
