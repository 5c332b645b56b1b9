/**
 * Request schemas of the admin area (/api/admin/*, /api/dashboard/*). The panel's forms validate with the
 * same schemas the routes do.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";

/** GET /api/admin/users?q=&page=&limit=: e-mail substring (≤ 254), page ≥ 1, limit 1..ADMIN_USERS_PAGE_MAX. */
export const AdminUsersQuerySchema = z.object({
  q: safeText().trim().max(254).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(config().ADMIN_USERS_PAGE_MAX).default(20),
});

/** PATCH /api/admin/users/{id} {role?, banned?}: at least one of the two. */
export const AdminUserPatchSchema = z
  .strictObject({
    role: z.enum(["admin", "user"]).optional(),
    banned: z.boolean().optional(),
  })
  .refine((b) => b.role !== undefined || b.banned !== undefined, { message: "Give role or banned." });
export type AdminUserPatch = z.infer<typeof AdminUserPatchSchema>;

/** GET /api/admin/activity?limit=&before=: newest first, `before` an ISO timestamp cursor. */
export const AdminActivityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(config().ADMIN_ACTIVITY_PAGE_MAX).default(50),
  before: z.iso.datetime({ offset: true }).optional(),
});
