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

/** The importers' sources (lib/import/types.ts IMPORT_SOURCES), and `auto`: told from the file's first bytes. */
export const IMPORT_UPLOAD_SOURCES = ["auto", "saos", "fcl", "juddges", "jsonl"] as const;
export type ImportUploadSource = (typeof IMPORT_UPLOAD_SOURCES)[number];

/** GET /api/admin/imports?page=&limit=: runs newest first. */
export const AdminImportRunsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** POST /api/admin/imports?source=&name=: the body is the file itself (application/octet-stream). */
export const AdminImportUploadQuerySchema = z.object({
  source: z.enum(IMPORT_UPLOAD_SOURCES).default("auto"),
  name: safeText().trim().min(1).max(255),
});
