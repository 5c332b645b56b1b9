import { withRoute } from "@/lib/api/route";
import { baseSchemaDefinition } from "@/lib/backend/extractions/definition";

export const dynamic = "force-dynamic";

/**
 * GET /api/extractions/base-schema/definition: the field registry as JSON (read-only). Signed in like every other
 * extractions route (spec: Authentication 5); the public-route allowlist does not list it.
 */
export const GET = withRoute({ auth: "user" }, () => baseSchemaDefinition());
