import { withRoute } from "@/lib/api/route";
import { documentsStats } from "@/lib/backend/admin/stats";

export const dynamic = "force-dynamic";

/** GET /api/admin/documents/stats → judgments by extraction status, by jurisdiction and year, and completeness. */
export const GET = withRoute({ auth: "admin" }, async ({ serviceDb }) => documentsStats(serviceDb()));
