import { withRoute } from "@/lib/api/route";
import { adminActivity } from "@/lib/backend/admin/stats";
import { AdminActivityQuerySchema } from "@/lib/schema/requests/admin";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/activity?limit=50&before= → {items, audit, next_before}: product events (name and surface only, never
 * query text) and searches, newest first, with the user's e-mail; and the admin audit log (admins only).
 */
export const GET = withRoute({ auth: "admin", query: AdminActivityQuerySchema }, async ({ serviceDb, query }) =>
  adminActivity(serviceDb(), query),
);
