import type { SupabaseClient } from "@supabase/supabase-js";
import { fromPostgrestError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";

/**
 * Search analytics (spec: Other records): one row per search with the raw query text, hit count, latency and mode,
 * attributed to the signed-in user when there is one (null for guests). Raw query text lives here, never in
 * app_events. Users read back only their own rows (RLS + search_history()).
 */
export interface SearchRecord {
  query: string;
  hitCount: number;
  latencyMs: number;
  /** e.g. "text", "hybrid", "semantic". */
  mode: string;
  userId: string | null;
}

export interface SearchHistoryRow {
  id: string;
  query: string;
  hit_count: number;
  latency_ms: number;
  mode: string;
  created_at: string;
}

/** The mode recorded for a semantic ratio: 0 text, 1 semantic, between hybrid. */
export function searchMode(semanticRatio: number): "text" | "semantic" | "hybrid" {
  return semanticRatio <= 0 ? "text" : semanticRatio >= 1 ? "semantic" : "hybrid";
}

function normaliseMode(mode: string): string {
  const m = mode.toLowerCase().replace(/[^a-z_]/g, "_").slice(0, 32);
  return m || "unknown";
}

function toRow(r: SearchRecord) {
  return {
    query: Array.from(r.query).slice(0, config().SEARCH_ANALYTICS_QUERY_MAX_CHARS).join(""),
    hit_count: Math.max(0, Math.round(r.hitCount)),
    latency_ms: Math.max(0, Math.round(r.latencyMs)),
    mode: normaliseMode(r.mode),
    user_id: r.userId,
  };
}

/**
 * Record searches through the service role in one call (record_searches). A failure is logged and never reaches the
 * searcher; resolves to the number of rows written.
 */
export async function recordSearches(serviceDb: SupabaseClient, records: readonly SearchRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  try {
    const { data, error } = await serviceDb.rpc("record_searches", { p_rows: records.map(toRow) });
    if (error) {
      logger.warn({ code: error.code, message: error.message, rows: records.length }, "search analytics rows not recorded");
      return 0;
    }
    return typeof data === "number" ? data : 0;
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e), rows: records.length }, "search analytics rows not recorded");
    return 0;
  }
}

/** Record one search now (scripts and tests; the search route queues instead). */
export async function recordSearch(serviceDb: SupabaseClient, r: SearchRecord): Promise<void> {
  await recordSearches(serviceDb, [r]);
}

/**
 * The search route's queue: rows wait in process at most SEARCH_ANALYTICS_FLUSH_MS (or until
 * SEARCH_ANALYTICS_BATCH_MAX are waiting) and go to the database in one call, off the request path. A crash loses
 * at most that window of analytics rows (they are statistics, never a user's data); a full queue (the database
 * unreachable for long) drops the oldest rows with a warning instead of growing without bound.
 */
const queue: SearchRecord[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
const QUEUE_CAP = 10_000;

export function queueSearchRecord(serviceDb: () => SupabaseClient, r: SearchRecord): void {
  if (queue.length >= QUEUE_CAP) {
    queue.splice(0, queue.length - QUEUE_CAP + 1);
    logger.warn({ cap: QUEUE_CAP }, "search analytics queue full: dropped the oldest row");
  }
  queue.push(r);
  const c = config();
  if (queue.length >= c.SEARCH_ANALYTICS_BATCH_MAX) {
    void flushSearchRecords(serviceDb);
  } else if (!timer) {
    timer = setTimeout(() => void flushSearchRecords(serviceDb), c.SEARCH_ANALYTICS_FLUSH_MS);
    timer.unref?.();
  }
}

/** Write every queued row now (the timer's job; also for shutdown and tests). */
export async function flushSearchRecords(serviceDb: () => SupabaseClient): Promise<number> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const rows = queue.splice(0, queue.length);
  return rows.length === 0 ? 0 : recordSearches(serviceDb(), rows);
}

/** The caller's own recent searches (their RLS-bound client), newest first. */
export async function searchHistory(db: SupabaseClient, opts: { limit: number; offset: number }): Promise<SearchHistoryRow[]> {
  const { data, error } = await db.rpc("search_history", { p_limit: opts.limit, p_offset: opts.offset });
  if (error) throw fromPostgrestError(error);
  return (data ?? []) as SearchHistoryRow[];
}
