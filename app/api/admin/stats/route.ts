import { withRoute } from "@/lib/api/route";
import { adminStats } from "@/lib/backend/admin/stats";

export const dynamic = "force-dynamic";

/** GET /api/admin/stats → {users, judgments, collections, searches, events_7d} (admins only). */
export const GET = withRoute({ auth: "admin" }, async ({ serviceDb }) => adminStats(serviceDb()));
