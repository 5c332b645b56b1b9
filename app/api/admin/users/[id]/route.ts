import { withRoute } from "@/lib/api/route";
import { updateAdminUser } from "@/lib/backend/admin/users";
import { ApiError } from "@/lib/errors";
import { AdminUserPatchSchema } from "@/lib/schema/requests/admin";
import { isUuid } from "@/lib/schema/uuid";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/admin/users/{id} {role?: "admin" | "user", banned?: boolean} → the user's new state. 409
 * SELF_ROLE_CHANGE for one's own role or ban, 404 USER_NOT_FOUND. Recorded in the admin audit log.
 */
export const PATCH = withRoute({ auth: "admin", body: AdminUserPatchSchema }, async ({ params, body, identity, serviceDb }) => {
  if (!isUuid(params.id)) throw new ApiError("USER_NOT_FOUND");
  return updateAdminUser(serviceDb(), identity, params.id, body);
});
