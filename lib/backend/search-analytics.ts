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

/**
 * Record one search through the service role. Fire-and-forget: call without awaiting (`void recordSearch(db, r)`);
 * a failure is logged and never reaches the searcher.
 */
export async function recordSearch(serviceDb: SupabaseClient, r: SearchRecord): Promise<void> {
  try {
    const { error } = await serviceDb.rpc("record_search", {
      p_query: Array.from(r.query).slice(0, config().SEARCH_ANALYTICS_QUERY_MAX_CHARS).join(""),
      p_hit_count: Math.max(0, Math.round(r.hitCount)),
      p_latency_ms: Math.max(0, Math.round(r.latencyMs)),
      p_mode: normaliseMode(r.mode),
      p_user_id: r.userId,
    });
    if (error) logger.warn({ code: error.code, message: error.message }, "search analytics row not recorded");
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "search analytics row not recorded");
  }
}

/** The caller's own recent searches (their RLS-bound client), newest first. */
export async function searchHistory(db: SupabaseClient, opts: { limit: number; offset: number }): Promise<SearchHistoryRow[]> {
  const { data, error } = await db.rpc("search_history", { p_limit: opts.limit, p_offset: opts.offset });
  if (error) throw fromPostgrestError(error);
  return (data ?? []) as SearchHistoryRow[];
}
