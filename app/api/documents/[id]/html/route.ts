import { withRoute } from "@/lib/api/route";
import { documentHtml } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

export const GET = withRoute({ auth: "public" }, async ({ params, identity }) => documentHtml(params.id, identity));
