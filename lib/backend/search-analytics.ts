import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { processShared } from "@/lib/process-shared";

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

/** The mode recorded for an autocomplete request (R-VER-007): kept apart from full searches by its mode. */
export const AUTOCOMPLETE_MODE = "autocomplete";

/**
 * The analytics row of one autocomplete answer (spec: Versioning 2, v1.3.0 "autocomplete optionally accepts bearer
 * auth and attributes rows to the user"): the raw query, its hit estimate and engine time, attributed to the bearer's
 * user or null for anonymous callers. An empty query (the box just focused) is no search and records nothing.
 */
export function autocompleteRecord(
  answer: { query: string; estimated_total: number; processing_time_ms: number },
  userId: string | null,
): SearchRecord | null {
  if (answer.query.trim() === "") return null;
  return { query: answer.query, hitCount: answer.estimated_total, latencyMs: answer.processing_time_ms, mode: AUTOCOMPLETE_MODE, userId };
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

/** One record_searches call: how many rows were written, or `failed` when the write did not happen. */
async function writeSearchRows(serviceDb: DbClient, records: readonly SearchRecord[]): Promise<{ written: number; failed: boolean }> {
  try {
    const { data, error } = await serviceDb.rpc("record_searches", { p_rows: records.map(toRow) });
    if (error) {
      logger.warn({ code: error.code, message: error.message, rows: records.length }, "search analytics rows not recorded");
      return { written: 0, failed: true };
    }
    return { written: typeof data === "number" ? data : 0, failed: false };
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e), rows: records.length }, "search analytics rows not recorded");
    return { written: 0, failed: true };
  }
}

/**
 * Record searches through the service role in one call (record_searches). A failure is logged and never reaches the
 * searcher; resolves to the number of rows written.
 */
export async function recordSearches(serviceDb: DbClient, records: readonly SearchRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  return (await writeSearchRows(serviceDb, records)).written;
}

/** Record one search now (scripts and tests; the search route queues instead). */
export async function recordSearch(serviceDb: DbClient, r: SearchRecord): Promise<void> {
  await recordSearches(serviceDb, [r]);
}

/**
 * The search route's queue: rows wait in process at most SEARCH_ANALYTICS_FLUSH_MS (or until
 * SEARCH_ANALYTICS_BATCH_MAX are waiting) and go to the database in one call, off the request path.
 *   - A failed write puts its rows back at the head of the queue and retries after a growing delay; a row is tried at
 *     most SEARCH_ANALYTICS_MAX_ATTEMPTS times, then dropped with a warning (issue 12, L8).
 *   - The queue is bounded (SEARCH_ANALYTICS_QUEUE_CAP): past it the oldest rows are dropped with a warning, so a
 *     database that is down for long cannot grow the process without bound.
 *   - The app server flushes the queue on SIGTERM/SIGINT (flushSearchRecordsAtShutdown), so a deploy loses nothing;
 *     only a crash loses at most the last window (they are statistics, never a user's data).
 * The queue lives on globalThis: the app server (loaded by tsx) and the route bundles (loaded by Next) are separate
 * module instances in one process, and the server's shutdown must reach the rows the routes queued.
 */
interface Pending {
  record: SearchRecord;
  attempts: number;
}

interface QueueState {
  rows: Pending[];
  timer: ReturnType<typeof setTimeout> | null;
  /** The factory of the last caller, used by the shutdown flush. */
  serviceDb: (() => DbClient) | null;
  inFlight: Set<Promise<number>>;
}

const STATE_KEY = Symbol.for("judgments.searchAnalyticsQueue");

function state(): QueueState {
  return processShared<QueueState>(STATE_KEY, () => ({ rows: [], timer: null, serviceDb: null, inFlight: new Set() }));
}

/** Rows waiting in process (tests and the health page). */
export function queuedSearchRecordCount(): number {
  return state().rows.length;
}

function enforceCap(q: QueueState): void {
  const cap = config().SEARCH_ANALYTICS_QUEUE_CAP;
  if (q.rows.length > cap) {
    const dropped = q.rows.length - cap;
    q.rows.splice(0, dropped);
    logger.warn({ cap, dropped }, "search analytics queue full: dropped the oldest rows");
  }
}

function schedule(q: QueueState, serviceDb: () => DbClient, delayMs: number): void {
  if (q.timer) return;
  q.timer = setTimeout(() => {
    q.timer = null;
    void flushSearchRecords(serviceDb);
  }, delayMs);
  q.timer.unref?.();
}

export function queueSearchRecord(serviceDb: () => DbClient, r: SearchRecord): void {
  const q = state();
  q.serviceDb = serviceDb;
  q.rows.push({ record: r, attempts: 0 });
  enforceCap(q);
  const c = config();
  if (q.rows.length >= c.SEARCH_ANALYTICS_BATCH_MAX) void flushSearchRecords(serviceDb);
  else schedule(q, serviceDb, c.SEARCH_ANALYTICS_FLUSH_MS);
}

/** Write every queued row now (the timer's job; also for shutdown and tests). Resolves to the rows written. */
export function flushSearchRecords(serviceDb: () => DbClient): Promise<number> {
  const q = state();
  if (q.timer) {
    clearTimeout(q.timer);
    q.timer = null;
  }
  const batch = q.rows.splice(0, q.rows.length);
  if (batch.length === 0) return Promise.resolve(0);
  const write = (async () => {
    const { written, failed } = await writeSearchRows(serviceDb(), batch.map((p) => p.record));
    if (!failed) return written;
    const { SEARCH_ANALYTICS_MAX_ATTEMPTS: maxAttempts, SEARCH_ANALYTICS_FLUSH_MS: flushMs } = config();
    const retry = batch.map((p) => ({ ...p, attempts: p.attempts + 1 })).filter((p) => p.attempts < maxAttempts);
    if (retry.length < batch.length) {
      logger.warn({ dropped: batch.length - retry.length, attempts: maxAttempts }, "search analytics rows dropped after repeated failures");
    }
    if (retry.length) {
      // Back at the head, oldest first, ahead of rows queued meanwhile; the cap still holds.
      q.rows.unshift(...retry);
      enforceCap(q);
      const attempt = Math.min(...retry.map((p) => p.attempts));
      schedule(q, serviceDb, flushMs * 2 ** Math.min(attempt, 6));
    }
    return 0;
  })();
  q.inFlight.add(write);
  void write.finally(() => q.inFlight.delete(write));
  return write;
}

/**
 * The app server's close path (server/app-server.ts): wait for writes in flight, then write what is queued, until
 * nothing is left or the time is up (a database that is down must not hold the process forever). Resolves to the
 * rows still waiting (0 = everything written).
 */
export async function flushSearchRecordsAtShutdown(timeoutMs = config().SHUTDOWN_FLUSH_TIMEOUT_MS): Promise<number> {
  const q = state();
  const deadline = Date.now() + timeoutMs;
  const remaining = async (): Promise<number> => {
    while (Date.now() < deadline) {
      await Promise.all([...q.inFlight]);
      if (q.rows.length === 0 || !q.serviceDb) break;
      await flushSearchRecords(q.serviceDb);
    }
    if (q.timer) {
      clearTimeout(q.timer);
      q.timer = null;
    }
    return q.rows.length;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(q.rows.length + q.inFlight.size), timeoutMs);
  });
  try {
    const left = await Promise.race([remaining(), timeUp]);
    if (left > 0) logger.warn({ rows: left }, "search analytics rows not written before shutdown");
    return left;
  } finally {
    clearTimeout(timer);
  }
}

/** The caller's own recent searches (their RLS-bound client), newest first. */
export async function searchHistory(db: DbClient, opts: { limit: number; offset: number }): Promise<SearchHistoryRow[]> {
  const { data, error } = await db.rpc("search_history", { p_limit: opts.limit, p_offset: opts.offset });
  if (error) throw fromDatabaseError(error);
  return data;
}
