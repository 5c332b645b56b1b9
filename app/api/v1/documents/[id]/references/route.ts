import { withRoute } from "@/lib/api/route";
import { documentReferences } from "@/lib/backend/citations";

export const dynamic = "force-dynamic";

/** GET /api/v1/documents/{id}/references: what a judgment cites (the citator), for API-key holders; read like the judgment. */
export const GET = withRoute({ auth: "public", apiKey: "required" }, async ({ params, identity }) => documentReferences(params.id, identity));
