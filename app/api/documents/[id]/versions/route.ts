import { withRoute } from "@/lib/api/route";
import { judgmentVersions } from "@/lib/backend/assistants/document-helpers";
import { VersionsQuerySchema } from "@/lib/schema/requests/assistant-tools";

export const dynamic = "force-dynamic";

/** GET /api/documents/{id}/versions: the judgment's recorded changes, newest first (ruling P-45). */
export const GET = withRoute({ auth: "user", query: VersionsQuerySchema }, async ({ params, query, identity }) =>
  judgmentVersions(params.id, query, identity),
);
