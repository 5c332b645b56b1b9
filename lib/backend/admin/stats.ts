import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { config } from "@/lib/config";
import { fromDatabaseError } from "@/lib/errors";
import { searchDataDir } from "@/lib/search/engine";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { defaultChecks } from "../health/checks";
import { healthStatus, type HealthStatus } from "../health/status";

/** The panel's read functions. Each is one service-role RPC; the routes are admin-only. */

const count = z.number();
const counts = z.record(z.string(), count);

const AdminStatsSchema = z.object({
  users: z.object({ total: count, admins: count, new_7d: count, active_7d: count, banned: count }),
  judgments: z.object({ total: count, PL: count, UK: count, base_extracted: count }),
  collections: count,
  searches: z.object({ total: count, last_24h: count, zero_result_rate: z.number().nullable() }),
  events_7d: counts,
});
export type AdminStats = z.infer<typeof AdminStatsSchema>;

async function rpcJson(run: () => PromiseLike<{ data: Json | null; error: { message: string } | null }>): Promise<Json | null> {
  const { data, error } = await run();
  if (error) throw fromDatabaseError(error);
  return data;
}

/** GET /api/admin/stats. */
export async function adminStats(db: DbClient): Promise<AdminStats> {
  return AdminStatsSchema.parse(await rpcJson(() => db.rpc("admin_stats")));
}

const ActivityItemSchema = z.object({
  kind: z.enum(["event", "search"]),
  id: z.string(),
  at: z.string(),
  /** Event name, or the search mode. */
  name: z.string(),
  /** Event surface (web/api), or the search query (searches only: events never carry query text). */
  detail: z.string().nullable(),
  hit_count: z.number().nullable(),
  user_email: z.string().nullable(),
});
export type ActivityItem = z.infer<typeof ActivityItemSchema>;

const AuditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export interface AdminActivity {
  items: ActivityItem[];
  audit: AuditEntry[];
  /** Pass as `before` for the next (older) page; null at the end. */
  next_before: string | null;
}

/** GET /api/admin/activity?limit=&before=: events and searches newest first, plus the admin audit log. */
export async function adminActivity(db: DbClient, q: { limit: number; before?: string }): Promise<AdminActivity> {
  const limit = Math.min(q.limit, config().ADMIN_ACTIVITY_PAGE_MAX);
  const [items, audit] = await Promise.all([
    rpcJson(() => db.rpc("admin_activity", { p_limit: limit, p_before: q.before })),
    rpcJson(() => db.rpc("admin_audit_entries", { p_limit: limit, p_before: q.before })),
  ]);
  const parsed = z.array(ActivityItemSchema).parse(items);
  return {
    items: parsed,
    audit: z.array(AuditEntrySchema).parse(audit),
    next_before: parsed.length === limit ? parsed[parsed.length - 1].at : null,
  };
}

const DocumentsStatsSchema = z.object({
  total: count,
  extraction: z.object({ base: counts, structure: counts, deep: counts }),
  by_jurisdiction_year: z.array(z.object({ year: z.number().nullable(), PL: count, UK: count })),
  completeness: z.object({ overall: z.number().nullable(), by_field: z.record(z.string(), z.number().nullable()) }).nullable(),
  completeness_computed_at: z.string().nullable(),
});
export type DocumentsStats = z.infer<typeof DocumentsStatsSchema>;

/** GET /api/admin/documents/stats. */
export async function documentsStats(db: DbClient): Promise<DocumentsStats> {
  return DocumentsStatsSchema.parse(await rpcJson(() => db.rpc("admin_documents_stats")));
}

const SystemFactsSchema = z.object({
  database_bytes: count,
  sync_runs: z.array(
    z.object({
      id: count,
      kind: z.string(),
      engine: z.string(),
      started_at: z.string(),
      completed_at: z.string().nullable(),
      error: z.string().nullable(),
      documents: count,
      chunks: count,
      deleted: count,
    }),
  ),
  jobs: z.array(
    z.object({
      name: z.string(),
      last_started_at: z.string().nullable(),
      last_finished_at: z.string().nullable(),
      last_ok: z.boolean().nullable(),
      last_error: z.string().nullable(),
    }),
  ),
});

export interface SystemHealth {
  health: HealthStatus;
  process: { uptime_s: number; rss_bytes: number; heap_used_bytes: number; node: string };
  database_bytes: number;
  /** Bytes of the embedded index folder; null with Meilisearch (its size is the server's business). */
  index_bytes: number | null;
  sync_runs: z.infer<typeof SystemFactsSchema>["sync_runs"];
  jobs: z.infer<typeof SystemFactsSchema>["jobs"];
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += (await fs.stat(p).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** GET /api/admin/system/health: the health status plus this process, database and index sizes, syncs and jobs. */
export async function systemHealth(db: DbClient): Promise<SystemHealth> {
  const [health, facts, indexBytes] = await Promise.all([
    healthStatus(defaultChecks()),
    rpcJson(() => db.rpc("admin_system_facts")).then((d) => SystemFactsSchema.parse(d)),
    config().MEILI_HOST ? Promise.resolve(null) : folderBytes(searchDataDir()),
  ]);
  const mem = process.memoryUsage();
  return {
    health,
    process: { uptime_s: Math.round(process.uptime()), rss_bytes: mem.rss, heap_used_bytes: mem.heapUsed, node: process.version },
    database_bytes: facts.database_bytes,
    index_bytes: indexBytes,
    sync_runs: facts.sync_runs,
    jobs: facts.jobs,
  };
}
