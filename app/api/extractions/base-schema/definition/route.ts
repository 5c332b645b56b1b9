import { withRoute } from "@/lib/api/route";
import { baseSchemaDefinition } from "@/lib/backend/extractions/definition";

export const dynamic = "force-static";

/** GET /api/extractions/base-schema/definition: the field registry as JSON (read-only, no data behind it). */
export const GET = withRoute({ auth: "public" }, () => baseSchemaDefinition());
