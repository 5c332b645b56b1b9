import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { processShared } from "@/lib/process-shared";
import type { Json } from "@/lib/supabase/database.types";
import { isJsonObject, jsonArg, type JsonObject } from "@/lib/supabase/json";

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
  /** What the search was asked besides its text and mode, kept so the history can show it and run it again. */
  params?: SearchParamsRecord | null;
}

/**
 * A search's filters and order as the search route received them: the engine filter expression, the structured filter
 * object and the sort. The /search page sends `filter` and `sort`; the history page turns them back into its chips and
 * link (lib/client/search-url-state.ts, searchStateFromFilter).
 */
export interface SearchParamsRecord {
  filter?: string;
  filters?: JsonObject;
  sort?: string;
}

export interface SearchHistoryRow {
  id: string;
  query: string;
  hit_count: number;
  latency_ms: number;
  mode: string;
  created_at: string;
  /** The search's filters and sort; null for searches without any, and for rows written before they were kept. */
  params: SearchParamsRecord | null;
}

/**
 * The params of a search route request worth keeping: a non-empty filter, a structured filter object (its JSON text,
 * already checked by the search) and a sort other than relevance. Null when there is none.
 */
export function searchParamsRecord(p: { filter?: string; filters?: string; sort?: string }): SearchParamsRecord | null {
  const out: SearchParamsRecord = {};
  if (p.filter?.trim()) out.filter = p.filter.trim();
  if (p.filters?.trim()) {
    try {
      const parsed = JSON.parse(p.filters) as Json;
      if (isJsonObject(parsed) && Object.keys(parsed).length > 0) out.filters = parsed;
    } catch {
      // not JSON: the search refused it already, so there is no search to keep
    }
  }
  if (p.sort?.trim() && p.sort.trim() !== "relevance") out.sort = p.sort.trim();
  return Object.keys(out).length ? out : null;
}

/** A stored params value read back: only the known keys of their known types. */
function readParams(v: Json): SearchParamsRecord | null {
  if (!isJsonObject(v)) return null;
  const out: SearchParamsRecord = {};
  if (typeof v.filter === "string") out.filter = v.filter;
  if (isJsonObject(v.filters)) out.filters = v.filters;
  if (typeof v.sort === "string") out.sort = v.sort;
  return Object.keys(out).length ? out : null;
}

/** Params as Postgres can store them: the same NUL and lone-surrogate repair as the query text. */
function storableParams(p: SearchParamsRecord | null | undefined): Json {
  if (!p) return null;
  return jsonArg(JSON.parse(storableQuery(JSON.stringify(p))) as SearchParamsRecord);
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

/**
 * The query as Postgres can store it: NUL removed and each unpaired UTF-16 surrogate replaced by U+FFFD. Either one
 * in a batch made the whole record_searches call fail (22P05 / 22P02, the jsonb argument is refused before the
 * function runs), taking every other searcher's rows in it along.
 */
export function storableQuery(query: string): string {
  return query.replace(/\u0000/g, "").replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

function toRow(r: SearchRecord) {
  return {
    query: Array.from(storableQuery(r.query)).slice(0, config().SEARCH_ANALYTICS_QUERY_MAX_CHARS).join(""),
    hit_count: Math.max(0, Math.round(r.hitCount)),
    latency_ms: Math.max(0, Math.round(r.latencyMs)),
    mode: normaliseMode(r.mode),
    user_id: r.userId,
    params: storableParams(r.params),
  };
}

/** One record_searches call: how many rows were written, or `failed` (with the SQLSTATE when there is one). */
async function writeSearchRows(serviceDb: DbClient, records: readonly SearchRecord[]): Promise<{ written: number; failed: boolean; code?: string }> {
  try {
    const { data, error } = await serviceDb.rpc("record_searches", { p_rows: records.map(toRow) });
    if (error) {
      logger.warn({ code: error.code, message: error.message, rows: records.length }, "search analytics rows not recorded");
      return { written: 0, failed: true, code: error.code };
    }
    return { written: typeof data === "number" ? data : 0, failed: false };
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e), rows: records.length }, "search analytics rows not recorded");
    return { written: 0, failed: true };
  }
}

/** SQLSTATE class 22 (data exception): the database refuses the row itself; sending it again cannot help. */
const isDataError = (code: string | undefined) => typeof code === "string" && code.startsWith("22");

/**
 * Write a batch; when the database refuses it as data (class 22), write its rows one by one so that one row it
 * cannot take does not lose the others (record_searches does the same in SQL for rows of deleted accounts). Rows
 * refused as data are dropped with a warning; `retry` holds the rows that failed for any other reason (a database
 * that is down, a timeout), which are worth sending again.
 */
async function writeIsolatingBadRows<T>(serviceDb: DbClient, items: readonly T[], recordOf: (item: T) => SearchRecord): Promise<{ written: number; retry: T[] }> {
  const whole = await writeSearchRows(serviceDb, items.map(recordOf));
  if (!whole.failed) return { written: whole.written, retry: [] };
  if (!isDataError(whole.code) || items.length === 1) return { written: 0, retry: isDataError(whole.code) ? [] : [...items] };
  let written = 0;
  let dropped = 0;
  const retry: T[] = [];
  for (const item of items) {
    const one = await writeSearchRows(serviceDb, [recordOf(item)]);
    if (!one.failed) written += one.written;
    else if (isDataError(one.code)) dropped += 1;
    else retry.push(item);
  }
  if (dropped > 0) logger.warn({ dropped, rows: items.length }, "search analytics rows refused as data were dropped; the rest of the batch was written");
  return { written, retry };
}

/**
 * Record searches through the service role in one call (record_searches). A failure is logged and never reaches the
 * searcher; a row the database refuses as data is dropped alone. Resolves to the number of rows written.
 */
export async function recordSearches(serviceDb: DbClient, records: readonly SearchRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  return (await writeIsolatingBadRows(serviceDb, records, (r) => r)).written;
}

/** Record one search now (scripts and tests; the search route queues instead). */
export async function recordSearch(serviceDb: DbClient, r: SearchRecord): Promise<void> {
  await recordSearches(serviceDb, [r]);
}

/**
 * The search route's queue: rows wait in process at most SEARCH_ANALYTICS_FLUSH_MS (or until
 * SEARCH_ANALYTICS_BATCH_MAX are waiting) and go to the database in one call, off the request path.
 *   - A failed write puts its rows back at the head of the queue and retries after a growing delay; a row is tried at
 *     most SEARCH_ANALYTICS_MAX_ATTEMPTS times, then dropped with a warning (L8). A batch the database
 *     refuses as data (SQLSTATE class 22) is written row by row instead, and only the refused rows are dropped.
 *   - Queries are stored without NUL and with unpaired surrogates replaced (storableQuery), so a query typed by one
 *     searcher cannot make the batch fail in the first place.
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
    const { written, retry: failed } = await writeIsolatingBadRows(serviceDb(), batch, (p) => p.record);
    if (failed.length === 0) return written;
    const { SEARCH_ANALYTICS_MAX_ATTEMPTS: maxAttempts, SEARCH_ANALYTICS_FLUSH_MS: flushMs } = config();
    const retry = failed.map((p) => ({ ...p, attempts: p.attempts + 1 })).filter((p) => p.attempts < maxAttempts);
    if (retry.length < failed.length) {
      logger.warn({ dropped: failed.length - retry.length, attempts: maxAttempts }, "search analytics rows dropped after repeated failures");
    }
    if (retry.length) {
      // Back at the head, oldest first, ahead of rows queued meanwhile; the cap still holds.
      q.rows.unshift(...retry);
      enforceCap(q);
      const attempt = Math.min(...retry.map((p) => p.attempts));
      schedule(q, serviceDb, flushMs * 2 ** Math.min(attempt, 6));
    }
    return written;
  })();
  q.inFlight.add(write);
  void write.finally(() => q.inFlight.delete(write));
  return write;
}

/**
 * The app server's close path (server/app/app-server.ts): wait for writes in flight, then write what is queued, until
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
  return data.map((r) => ({ ...r, params: readParams(r.params) }));
}

/** The caller's own searches on the history page: a page of rows, newest first, and how many there are. */
export interface SearchHistoryPage {
  results: SearchHistoryRow[];
  total: number;
  limit: number;
  offset: number;
}

export async function searchHistoryPage(db: DbClient, opts: { limit: number; offset: number }): Promise<SearchHistoryPage> {
  const [results, count] = await Promise.all([searchHistory(db, opts), db.rpc("search_history_count")]);
  if (count.error) throw fromDatabaseError(count.error);
  return { results, total: Number(count.data), limit: opts.limit, offset: opts.offset };
}

/** Delete one of the caller's searches; another user's id and an unknown one are the same 404 (RLS hides both). */
export async function deleteSearchHistoryEntry(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_search_history_entry", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw new ApiError("SEARCH_HISTORY_ENTRY_NOT_FOUND");
}

/** Delete all of the caller's searches; the number deleted. */
export async function clearSearchHistory(db: DbClient): Promise<{ deleted: number }> {
  const { data, error } = await db.rpc("clear_search_history");
  if (error) throw fromDatabaseError(error);
  return { deleted: Number(data) };
}
