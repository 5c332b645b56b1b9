import { withRoute } from "@/lib/api/route";
import { documentReferences } from "@/lib/backend/citations";

export const dynamic = "force-dynamic";

/** GET /api/documents/{id}/references: what the judgment cites (cases, legislation, guidelines), resolved targets' ids. */
export const GET = withRoute({ auth: "public" }, async ({ params, identity }) => documentReferences(params.id, identity));
