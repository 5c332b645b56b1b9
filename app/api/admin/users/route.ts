import { withRoute } from "@/lib/api/route";
import { listAdminUsers } from "@/lib/backend/admin/users";
import { AdminUsersQuerySchema } from "@/lib/schema/requests/admin";

export const dynamic = "force-dynamic";

/** GET /api/admin/users?q=&page=&limit= → {users, total, page, per_page, pages} (admins only). */
export const GET = withRoute({ auth: "admin", query: AdminUsersQuerySchema }, async ({ serviceDb, query }) =>
  listAdminUsers(serviceDb(), query),
);
