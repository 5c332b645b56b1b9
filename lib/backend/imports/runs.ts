/**
 * The admin Imports page's reads (GET /api/admin/imports, GET /api/admin/imports/{id}): runs of the importers newest
 * first, one page at a time, and one run with its rejected records. Each is one RPC as the calling admin, so the
 * table's RLS (admins only) holds beneath the route's own role check.
 */
import path from "node:path";
import { z } from "zod";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";

const count = z.number();

const RejectionSchema = z.object({
  file: z.string(),
  record: z.number().optional(),
  line: z.number().optional(),
  id: z.string().optional(),
  at: z.string().optional(),
  reason: z.string(),
});
export type ImportRejection = z.infer<typeof RejectionSchema>;

const ImportRunSchema = z.object({
  id: z.string(),
  source: z.enum(["saos", "fcl", "juddges", "jsonl"]),
  origin: z.enum(["cli", "upload"]),
  status: z.enum(["queued", "running", "succeeded", "failed", "interrupted"]),
  inputs: z.array(z.string()),
  dry_run: z.boolean(),
  bytes_total: count,
  bytes_read: count,
  files: count,
  read: count,
  valid: count,
  inserted: count,
  updated: count,
  skipped: count,
  rejected: count,
  warnings: count,
  licence: z.string().nullable(),
  notice: z.string().nullable(),
  sync: z.unknown(),
  error: z.string().nullable(),
  created_by_email: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  updated_at: z.string(),
});
export type ImportRun = z.infer<typeof ImportRunSchema>;
export const parseImportRun = (data: unknown): ImportRun => ImportRunSchema.parse(data);
export type ImportRunDetail = ImportRun & { rejections: ImportRejection[] };

const ImportRunPageSchema = z.object({
  items: z.array(ImportRunSchema),
  total: count,
  page: count,
  per_page: count,
  pages: count,
});
export type ImportRunPage = z.infer<typeof ImportRunPageSchema>;

async function rpcJson(run: () => PromiseLike<{ data: Json | null; error: { message: string } | null }>): Promise<Json | null> {
  const { data, error } = await run();
  if (error) throw fromDatabaseError(error);
  return data;
}

/** GET /api/admin/imports?page=&limit=. */
export async function listImportRuns(db: DbClient, q: { page: number; limit: number }): Promise<ImportRunPage> {
  return ImportRunPageSchema.parse(await rpcJson(() => db.rpc("admin_import_runs", { p_page: q.page, p_per_page: q.limit })));
}

/**
 * GET /api/admin/imports/{id}. An upload's file sits under a server folder of its own: its rejections name the file
 * by the name it was uploaded with, not the folder.
 */
export async function getImportRun(db: DbClient, id: string): Promise<ImportRunDetail> {
  if (!isUuid(id)) throw new ApiError("IMPORT_RUN_NOT_FOUND");
  const data = await rpcJson(() => db.rpc("admin_import_run", { p_id: id }));
  if (data === null) throw new ApiError("IMPORT_RUN_NOT_FOUND");
  const run = ImportRunSchema.extend({ rejections: z.array(RejectionSchema) }).parse(data);
  if (run.origin === "upload") run.rejections = run.rejections.map((r) => ({ ...r, file: path.basename(r.file) }));
  return run;
}
