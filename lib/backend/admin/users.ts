import { z } from "zod";
import { config } from "@/lib/config";
import { ApiError, fromAuthError, fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";
import { recordAdminAction } from "../admin-audit";
import { forgetVerifiedApiKeys } from "../api-keys";
import type { Identity } from "../identity";
import { invalidateAccessSnapshot } from "./access";

const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  role: z.enum(["admin", "user"]),
  created_at: z.string().nullable(),
  last_sign_in_at: z.string().nullable(),
  banned: z.boolean(),
  collections: z.number(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

const UserStateSchema = z.object({ id: z.string(), email: z.string().nullable(), role: z.enum(["admin", "user"]), banned: z.boolean() });
export type AdminUserState = z.infer<typeof UserStateSchema>;

export interface AdminUserPage {
  users: AdminUser[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

/** GET /api/admin/users: e-mail substring, newest first, with role, sign-in, ban and collections count. */
export async function listAdminUsers(serviceDb: DbClient, q: { q?: string; page: number; limit: number }): Promise<AdminUserPage> {
  const limit = Math.min(q.limit, config().ADMIN_USERS_PAGE_MAX);
  const { data, error } = await serviceDb.rpc("admin_list_users", { p_q: q.q ?? "", p_page: q.page, p_limit: limit });
  if (error) throw fromDatabaseError(error);
  const parsed = z.object({ total: z.number(), users: z.array(AdminUserSchema) }).parse(data);
  return { users: parsed.users, total: parsed.total, page: q.page, per_page: limit, pages: Math.ceil(parsed.total / limit) };
}

async function userState(serviceDb: DbClient, id: string): Promise<AdminUserState> {
  const { data, error } = await serviceDb.rpc("admin_user_state", { p_user_id: id });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw new ApiError("USER_NOT_FOUND", "User not found.");
  return UserStateSchema.parse(data);
}

/**
 * PATCH /api/admin/users/{id} {role?, banned?}: through the identity provider's Auth admin API (app_metadata.role,
 * ban_duration), never by writing auth.users ourselves. Nobody changes their own role or bans themselves (so the last
 * admin cannot lock everyone out). A ban also ends the user's sessions there; tokens already issued are refused by
 * the access snapshot (invalidated here, so this process applies the change on the next request).
 */
export async function updateAdminUser(
  serviceDb: DbClient,
  identity: Identity,
  id: string,
  change: { role?: "admin" | "user"; banned?: boolean },
): Promise<AdminUserState> {
  if (id === identity.userId && ((change.role !== undefined && change.role !== "admin") || change.banned === true)) {
    throw new ApiError("SELF_ROLE_CHANGE", "You cannot revoke your own admin role or ban yourself.");
  }
  const before = await userState(serviceDb, id);
  const attrs: { app_metadata?: Record<string, string | null>; ban_duration?: string } = {};
  if (change.role !== undefined && change.role !== before.role) attrs.app_metadata = { role: change.role === "admin" ? "admin" : null };
  if (change.banned !== undefined && change.banned !== before.banned) attrs.ban_duration = change.banned ? config().ADMIN_BAN_DURATION : "none";
  if (Object.keys(attrs).length === 0) return before;
  const { error } = await serviceDb.auth.admin.updateUserById(id, attrs);
  if (error) {
    if (error.status === 404) throw new ApiError("USER_NOT_FOUND", "User not found.");
    throw fromAuthError(error);
  }
  invalidateAccessSnapshot();
  // A ban suspends the user's API keys and an unban restores them (P-82): nothing remembered may outlive either.
  if (attrs.ban_duration !== undefined) forgetVerifiedApiKeys();
  const after = await userState(serviceDb, id);
  await recordAdminAction(serviceDb, identity, {
    action: actionName(attrs.app_metadata !== undefined ? change.role : undefined, attrs.ban_duration !== undefined ? change.banned : undefined),
    targetType: "user",
    targetId: id,
    before,
    after,
  });
  return after;
}

function actionName(role: "admin" | "user" | undefined, banned: boolean | undefined): string {
  if (role !== undefined && banned !== undefined) return "user.update";
  if (role !== undefined) return role === "admin" ? "user.grant_admin" : "user.revoke_admin";
  return banned ? "user.ban" : "user.unban";
}
