import { withRoute } from "@/lib/api/route";
import { documentMetadata } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

export const GET = withRoute({ auth: "public" }, async ({ params, identity }) => documentMetadata(params.id, identity));
