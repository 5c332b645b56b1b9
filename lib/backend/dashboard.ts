import { z } from "zod";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { recordAdminAction } from "./admin-audit";
import type { Identity } from "./identity";
import type { ScheduledJob } from "./jobs/scheduled";

/**
 * Dashboard statistics: one precomputed row (public.dashboard_stats) rebuilt by
 * refresh_dashboard_stats(); reading it is a primary-key read. Coverage follows the completeness constants in SQL
 * (is_empty, is_empty_enum_value, coverage_ratio), so the dashboard and the rest of the service agree on "empty".
 */

const n = z.number();
const DashboardStatsSchema = z.object({
  total_judgments: n,
  by_jurisdiction: z.object({ PL: n, UK: n }),
  by_court_level: z.record(z.string(), n),
  top_courts: z.array(z.object({ name: z.string(), count: n })),
  decisions_per_year: z.array(z.object({ year: n, PL: n, UK: n })),
  date_range: z.object({ min: z.string().nullable(), max: z.string().nullable() }),
  by_decision_type: z.record(z.string(), n),
  data_completeness: z.object({ overall: n.nullable(), by_field: z.record(z.string(), n.nullable()) }),
  top_keywords: z.array(z.object({ value: z.string(), count: n })),
  computed_at: z.string(),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

function parse(data: Json | null): DashboardStats | null {
  return data === null ? null : DashboardStatsSchema.parse(data);
}

/**
 * This process's copy of the row for DASHBOARD_STATS_CACHE_MS: the public route is read far more often than the row
 * changes (daily, or an admin refresh), and the read through the gateway was most of its time. A refresh in this
 * process replaces the copy at once; one in another process (the worker's scheduled job) shows here within the TTL.
 */
let cached: { stats: DashboardStats; until: number } | null = null;

function remember(stats: DashboardStats): DashboardStats {
  const ttl = config().DASHBOARD_STATS_CACHE_MS;
  cached = ttl > 0 ? { stats, until: Date.now() + ttl } : null;
  return stats;
}

/** Forget this process's copy (tests; a refresh replaces it anyway). */
export function clearDashboardStatsCache(): void {
  cached = null;
}

/** Recompute the row (service role). */
export async function refreshDashboardStats(serviceDb: DbClient): Promise<DashboardStats> {
  const { data, error } = await serviceDb.rpc("refresh_dashboard_stats");
  if (error) throw fromDatabaseError(error, "DASHBOARD_UNAVAILABLE");
  const stats = parse(data);
  if (!stats) throw new ApiError("DASHBOARD_UNAVAILABLE");
  return remember(stats);
}

let firstFill: Promise<DashboardStats> | null = null;

/**
 * GET /api/dashboard/stats: the stored row. Before the first refresh (a fresh database whose worker has not run it
 * yet) this process computes it once, whoever asks first; concurrent callers share that one computation.
 */
export async function getDashboardStats(db: DbClient, serviceDb: () => DbClient): Promise<DashboardStats> {
  if (cached && cached.until > Date.now()) return cached.stats;
  const { data, error } = await db.rpc("get_dashboard_stats");
  if (error) throw fromDatabaseError(error, "DASHBOARD_UNAVAILABLE");
  const stats = parse(data);
  if (stats) return remember(stats);
  firstFill ??= refreshDashboardStats(serviceDb()).finally(() => {
    firstFill = null;
  });
  return firstFill;
}

/** POST /api/dashboard/refresh (admin, quota dashboardRefresh): recompute now and record it in the audit log. */
export async function refreshDashboardAsAdmin(serviceDb: DbClient, identity: Identity): Promise<DashboardStats> {
  const before = await serviceDb.rpc("get_dashboard_stats");
  const stats = await refreshDashboardStats(serviceDb);
  const prev = parse(before.data ?? null);
  await recordAdminAction(serviceDb, identity, {
    action: "dashboard.refresh",
    targetType: "dashboard_stats",
    before: prev ? { computed_at: prev.computed_at, total_judgments: prev.total_judgments } : null,
    after: { computed_at: stats.computed_at, total_judgments: stats.total_judgments },
  });
  return stats;
}

/** The worker's daily job, 00:30 UTC (and its run at start, which fills an empty row on a first start). */
export function dashboardStatsJob(serviceDb: DbClient): ScheduledJob {
  return {
    name: "refresh_dashboard_stats",
    cron: "30 0 * * *",
    atStart: true,
    run: async () => {
      const stats = await refreshDashboardStats(serviceDb);
      logger.info({ total: stats.total_judgments, computed_at: stats.computed_at }, "dashboard statistics refreshed");
    },
  };
}
