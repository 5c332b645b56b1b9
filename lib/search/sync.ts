/**
 * Postgres → search index (ARCHITECTURE: "the search engine is a derived index, rebuilt from Postgres at any time").
 * - full: every judgment in id order, in batches, into a fresh index that replaces the live one on commit;
 * - incremental: judgments with updated_at past the last run's watermark, and ids logged in
 *   search_judgment_deletions since the last run (migration 20260104000000);
 * - each run is recorded in search_sync_runs (started_at, completed_at, error, counts) for health.
 * Scheduled as pg-boss cron jobs of the worker process (search_sync_incremental, search_sync_full in
 * lib/backend/jobs/plan.ts); `npm run search:sync` runs one by hand.
 * A server-side job: it reads judgments directly with pg as the database owner (no user context).
 */
import pg from "pg";
import { buildIndexBatch } from "./batch";
import { batchBuilder } from "./batch-pool";
import { batchChunkCount } from "./chunk-columns";
import { JUDGMENT_COLUMNS, type JudgmentRow } from "./document";
import { batchDocumentCount } from "./encoded-docs";
import type { Embedder, IndexBatch, SearchEngine, Suggestion, SyncCounts } from "./types";
import type { PgRow } from "@/lib/supabase/pg-rows";

export interface SyncProgress {
  phase: "full" | "incremental";
  done: number;
  total: number;
}

export interface SyncOptions {
  engine: SearchEngine;
  embedder: Embedder;
  batchSize?: number;
  /** Incremental runs re-check this many seconds before the watermark for late commits (default 900). */
  lateCommitWindowSeconds?: number;
  onProgress?: (p: SyncProgress) => void;
}

export interface SyncRunResult extends SyncCounts {
  runId: number;
  kind: "full" | "incremental";
  durationMs: number;
}

const SELECT_COLUMNS = [...JUDGMENT_COLUMNS, "judges_flat"].map((c) => `"${c}"`).join(", ");

async function startRun(pool: pg.Pool, kind: "full" | "incremental", engine: string): Promise<number> {
  const r = await pool.query<{ id: string }>(
    "insert into public.search_sync_runs (kind, engine) values ($1, $2) returning id",
    [kind, engine],
  );
  return Number(r.rows[0].id);
}

async function finishRun(
  pool: pg.Pool,
  id: number,
  counts: SyncCounts,
  watermarks: { updated: string | null; deleted: string | null },
  error?: unknown,
): Promise<void> {
  const message = error ? (error instanceof Error ? error.message : String(error)).slice(0, 2000) : null;
  await pool.query(
    `update public.search_sync_runs
        set completed_at = now(), error = $2, documents = $3, chunks = $4, deleted = $5,
            updated_watermark = $6, deleted_watermark = $7
      where id = $1`,
    [id, message, counts.documents, counts.chunks, counts.deleted, watermarks.updated, watermarks.deleted],
  );
}

/**
 * Timestamps travel as Postgres text, never JS Dates: Dates keep milliseconds while timestamptz keeps microseconds,
 * and a truncated watermark would re-read (or loop on) the last row.
 */
async function watermarksNow(pool: pg.Pool): Promise<{ updated: string | null; deleted: string | null }> {
  const r = await pool.query<{ updated: string | null; deleted: string | null }>(
    `select (select max(updated_at)::text from public.judgments) as updated,
            (select max(deleted_at)::text from public.search_judgment_deletions) as deleted`,
  );
  return r.rows[0];
}

/** Rebuild the whole index from Postgres. */
export async function fullSync(pool: pg.Pool, opts: SyncOptions): Promise<SyncRunResult> {
  const t0 = Date.now();
  const runId = await startRun(pool, "full", opts.engine.name);
  const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
  const batchSize = opts.batchSize ?? 250;
  // Watermarks taken before reading: rows changed during the run are picked up by the next incremental run.
  const marks = await watermarksNow(pool);
  let session: Awaited<ReturnType<SearchEngine["sync"]["beginFull"]>> | null = null;
  try {
    const total = Number((await pool.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);
    opts.onProgress?.({ phase: "full", done: 0, total });
    session = await opts.engine.sync.beginFull({ expectedDocuments: total });
    const fetchAfter = (after: string) => {
      const p = pool.query<JudgmentRow>(
        `select ${SELECT_COLUMNS} from public.judgments where id > $1 order by id limit $2`,
        [after, batchSize],
      );
      p.catch(() => undefined); // awaited in the loop; a prefetch abandoned by an error must not go unhandled
      return p;
    };
    // A three-stage pipeline (Postgres reads the next batch, the batch builder, two worker threads with the lexical
    // embedder, builds the one after the current one, this thread adds the current one to the engine), so a 2-core
    // machine keeps both cores busy. At most three batches are in memory (read, being built, being added). The
    // builder also mines the phrase suggestions, where it has the documents.
    const live = session;
    const builder = await batchBuilder(opts.embedder);
    let suggestions: Suggestion[];
    try {
      const addBatch = async (batch: IndexBatch) => {
        await live.add(batch);
        counts.documents += batchDocumentCount(batch);
        counts.chunks += batchChunkCount(batch);
        opts.onProgress?.({ phase: "full", done: counts.documents, total });
      };
      let next = fetchAfter("00000000-0000-0000-0000-000000000000");
      let building: Promise<IndexBatch> | null = null;
      for (;;) {
        const r = await next;
        if (r.rows.length === 0) break;
        next = fetchAfter(String(r.rows[r.rows.length - 1].id));
        const previous = building;
        building = builder.build(r.rows);
        building.catch(() => undefined); // awaited on the next turn or after the loop
        if (previous) await addBatch(await previous);
      }
      if (building) await addBatch(await building);
      suggestions = await builder.suggestions();
    } finally {
      await builder.close();
    }
    await session.commit({ suggestions });
    await finishRun(pool, runId, counts, marks);
    return { ...counts, runId, kind: "full", durationMs: Date.now() - t0 };
  } catch (e) {
    await session?.abort().catch(() => undefined);
    await finishRun(pool, runId, counts, { updated: null, deleted: null }, e).catch(() => undefined);
    throw e;
  }
}

/** Upsert judgments changed since the last successful run and remove deleted ones. */
export async function incrementalSync(pool: pg.Pool, opts: SyncOptions): Promise<SyncRunResult> {
  const t0 = Date.now();
  const last = await pool.query<PgRow<"search_sync_runs", "updated_watermark" | "deleted_watermark"> & { truncated_since: boolean }>(
    `select r.updated_watermark::text as updated_watermark, r.deleted_watermark::text as deleted_watermark,
            exists (select 1 from public.search_judgment_truncations t where t.truncated_at > r.started_at) as truncated_since
       from public.search_sync_runs r
      where r.completed_at is not null and r.error is null and r.engine = $1
      order by r.completed_at desc limit 1`,
    [opts.engine.name],
  );
  if (last.rows.length === 0) return fullSync(pool, opts);
  const since = last.rows[0];
  // public.judgments was truncated (seed --reset) since that run: only a full build can follow (see indexRebuildReason).
  if (since.truncated_since) return fullSync(pool, opts);
  const runId = await startRun(pool, "incremental", opts.engine.name);
  const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
  const batchSize = opts.batchSize ?? 250;
  const marks = { updated: since.updated_watermark, deleted: since.deleted_watermark };
  try {
    const epoch = "1970-01-01T00:00:00Z";
    const total = Number(
      (
        await pool.query<{ n: string }>("select count(*) as n from public.judgments where updated_at > $1::timestamptz", [
          since.updated_watermark ?? epoch,
        ])
      ).rows[0].n,
    );
    opts.onProgress?.({ phase: "incremental", done: 0, total });
    let cursor: { at: string; id: string } = { at: since.updated_watermark ?? epoch, id: "" };
    let first = true;
    for (;;) {
      // Keyset pagination on (updated_at, id); the first page takes everything strictly after the watermark.
      const r = await pool.query<JudgmentRow & { cursor_at: string }>(
        first
          ? `select ${SELECT_COLUMNS}, updated_at::text as cursor_at from public.judgments
              where updated_at > $1::timestamptz order by updated_at, id limit $2`
          : `select ${SELECT_COLUMNS}, updated_at::text as cursor_at from public.judgments
              where (updated_at, id) > ($1::timestamptz, $3::uuid) order by updated_at, id limit $2`,
        first ? [cursor.at, batchSize] : [cursor.at, batchSize, cursor.id],
      );
      first = false;
      if (r.rows.length === 0) break;
      const batch = await buildIndexBatch(r.rows, opts.embedder);
      const c = await opts.engine.sync.upsert(batch);
      counts.documents += c.documents;
      counts.chunks += c.chunks;
      const lastRow = r.rows[r.rows.length - 1];
      cursor = { at: lastRow.cursor_at, id: String(lastRow.id) };
      marks.updated = cursor.at;
      opts.onProgress?.({ phase: "incremental", done: counts.documents, total });
    }
    if (since.updated_watermark) {
      const late = await upsertLateCommits(pool, opts, since.updated_watermark, batchSize);
      counts.documents += late.documents;
      counts.chunks += late.chunks;
    }
    const del = await pool.query<PgRow<"search_judgment_deletions", "judgment_id" | "deleted_at">>(
      `select d.judgment_id, d.deleted_at::text as deleted_at from public.search_judgment_deletions d
        where d.deleted_at > $1::timestamptz
          and not exists (select 1 from public.judgments j where j.id = d.judgment_id)
        order by d.deleted_at`,
      [since.deleted_watermark ?? epoch],
    );
    for (let i = 0; i < del.rows.length; i += 1000) {
      const slice = del.rows.slice(i, i + 1000);
      const c = await opts.engine.sync.delete(slice.map((r) => r.judgment_id));
      counts.deleted += c.deleted;
    }
    if (del.rows.length > 0) marks.deleted = del.rows[del.rows.length - 1].deleted_at;
    await finishRun(pool, runId, counts, marks);
    return { ...counts, runId, kind: "incremental", durationMs: Date.now() - t0 };
  } catch (e) {
    await finishRun(pool, runId, counts, { updated: null, deleted: null }, e).catch(() => undefined);
    throw e;
  }
}

/**
 * Late commits (L10): `updated_at = now()` is the writing transaction's start, so a row written by a
 * transaction that began before the last run's watermark but committed after that run has `updated_at <=
 * watermark` and the keyset above never sees it. Re-read the window of `lateCommitWindowSeconds` before the
 * watermark and upsert the rows the index does not hold at that version (compared on updated_at through
 * the sync port's indexedVersions, which needs no index loaded for queries), so a run that finds nothing late writes
 * nothing. The window is read as ids and versions first, and whole rows only for the stale ones: after an import the
 * window holds the judgments of the previous runs, which are all current. Transactions longer than the window are
 * still caught by the next full sync.
 */
async function upsertLateCommits(
  pool: pg.Pool,
  opts: SyncOptions,
  watermark: string,
  batchSize: number,
): Promise<SyncCounts> {
  const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
  const windowSeconds = opts.lateCommitWindowSeconds ?? 900;
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const r: pg.QueryResult<{ id: string; updated_at: Date; cursor_at: string }> = await pool.query(
      `select id, updated_at, updated_at::text as cursor_at from public.judgments
        where updated_at > $1::timestamptz - make_interval(secs => $2) and updated_at <= $1::timestamptz
          and ($4::timestamptz is null or (updated_at, id) > ($4::timestamptz, $5::uuid))
        order by updated_at, id limit $3`,
      [watermark, windowSeconds, batchSize, cursor?.at ?? null, cursor?.id ?? null],
    );
    if (r.rows.length === 0) break;
    const last = r.rows[r.rows.length - 1];
    cursor = { at: last.cursor_at, id: String(last.id) };
    const version = await opts.engine.sync.indexedVersions(r.rows.map((row) => String(row.id)));
    // pg parses updated_at into a Date (milliseconds), the index holds the ISO text of that same Date.
    const msOf = (v: unknown) => (v instanceof Date ? v.getTime() : Date.parse(String(v)));
    const stale = r.rows.filter((row) => {
      const held = version.get(String(row.id));
      return held === undefined || msOf(held) !== msOf(row.updated_at);
    });
    if (stale.length > 0) {
      const rows = await pool.query<JudgmentRow>(`select ${SELECT_COLUMNS} from public.judgments where id = any($1::uuid[])`, [stale.map((row) => String(row.id))]);
      if (rows.rows.length > 0) {
        const c = await opts.engine.sync.upsert(await buildIndexBatch(rows.rows, opts.embedder));
        counts.documents += c.documents;
        counts.chunks += c.chunks;
      }
    }
    if (r.rows.length < batchSize) break;
  }
  return counts;
}

/** One search_sync_runs row as node-pg returns it (timestamps as Date; kind is checked to full|incremental). */
export type SyncRunRow = Omit<
  PgRow<"search_sync_runs", "id" | "kind" | "engine" | "started_at" | "completed_at" | "error" | "documents" | "chunks" | "deleted", "started_at" | "completed_at">,
  "kind"
> & { kind: "full" | "incremental" };

/** The latest sync runs, newest first (for health). */
export async function recentSyncRuns(pool: pg.Pool, limit = 5): Promise<SyncRunRow[]> {
  const r = await pool.query<SyncRunRow>(
    `select id::int as id, kind, engine, started_at, completed_at, error, documents, chunks, deleted
       from public.search_sync_runs order by started_at desc, id desc limit $1`,
    [limit],
  );
  return r.rows;
}

/** What the launcher compares before serving the live index (readIndexState). */
export interface IndexState {
  /** Documents in the live index, and whether it was built with the configured embedder. */
  indexDocuments: number;
  embedderRegistered: boolean;
  /** False when the index predates a change of the document layout (new fields). */
  layoutCurrent?: boolean;
  /** Rows in public.judgments. */
  judgments: number;
  /** started_at of this engine's latest successful full sync (null: none recorded). */
  lastFullSyncAt: Date | null;
  /** The latest TRUNCATE of public.judgments (search_judgment_truncations; null: none logged). */
  lastTruncatedAt: Date | null;
}

/** The index may hold this share of documents more or fewer than the table before the launcher rebuilds it. */
export const INDEX_DRIFT_TOLERANCE = 0.01;

/**
 * Why the launcher must rebuild the index before serving it, or null when the live one may be served and the
 * scheduled incremental syncs keep it current. The rule:
 *  - nothing to build while public.judgments is empty;
 *  - an empty index, or one built with another embedder: rebuild;
 *  - public.judgments was truncated (`npm run seed -- --reset`) after the index's latest full build started: rebuild —
 *    an incremental sync cannot follow that (TRUNCATE logs no deletions, and a seeded corpus keeps past updated_at);
 *  - the index's document count and the table's differ by more than 1 % of the table: rebuild (a reseed of another
 *    size, or a long outage of the sync). A smaller gap is left to the incremental sync, which costs far less than a
 *    full build on a large corpus.
 */
export function indexRebuildReason(s: IndexState): string | null {
  if (s.judgments === 0) return null;
  if (s.indexDocuments === 0) return "the index is empty";
  if (!s.embedderRegistered) return "the index was built with another embedder";
  if (s.layoutCurrent === false) return "the index was built before fields were added to its documents";
  if (s.lastTruncatedAt && (!s.lastFullSyncAt || s.lastTruncatedAt.getTime() > s.lastFullSyncAt.getTime())) {
    return "public.judgments was emptied (seed --reset) after the index was built";
  }
  if (Math.abs(s.indexDocuments - s.judgments) > s.judgments * INDEX_DRIFT_TOLERANCE) {
    return `the index holds ${s.indexDocuments} documents and public.judgments ${s.judgments} rows (more than ${INDEX_DRIFT_TOLERANCE * 100} % apart)`;
  }
  return null;
}

/** Anything that runs a query: a pool, or one client inside a transaction (tests). */
type Queryable = Pick<pg.Pool, "query">;

/** The table's side of IndexState (one round trip); the index's side comes from the engine's health. */
export async function readIndexState(db: Queryable, engineName: string, index: { documents: number; embedderRegistered: boolean; layoutCurrent?: boolean }): Promise<IndexState> {
  const r = await db.query<{ n: string; full: Date | null; truncated: Date | null }>(
    `select (select count(*) from public.judgments) as n,
            (select max(started_at) from public.search_sync_runs
              where kind = 'full' and engine = $1 and completed_at is not null and error is null) as full,
            (select max(truncated_at) from public.search_judgment_truncations) as truncated`,
    [engineName],
  );
  const row = r.rows[0];
  return {
    indexDocuments: index.documents,
    embedderRegistered: index.embedderRegistered,
    ...(index.layoutCurrent === undefined ? {} : { layoutCurrent: index.layoutCurrent }),
    judgments: Number(row.n),
    lastFullSyncAt: row.full,
    lastTruncatedAt: row.truncated,
  };
}

/**
 * Build the index at start (launcher) when indexRebuildReason says so (first start, a reseed, a large drift). A live
 * index that cannot be opened (files corrupted by a crash) is set aside with a warning and rebuilt, instead of
 * stopping the launcher (L10 / reliability row 29): Postgres is the source of truth. Returns what it did.
 */
export async function ensureSearchIndex(
  databaseUrl: string,
  opts: {
    engine?: SearchEngine;
    embedder?: Embedder;
    onProgress?: (p: SyncProgress) => void;
    /** Warnings (default: console.warn). */
    warn?: (msg: string) => void;
  } = {},
): Promise<{ built: boolean; reason?: string; recovered?: { reason: string; movedTo: string }; result?: SyncRunResult }> {
  const { getSearch } = await import("./engine");
  const holder = getSearch();
  const engine = opts.engine ?? holder.engine;
  const embedder = opts.embedder ?? holder.embedder;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const warn = opts.warn ?? ((msg: string) => console.warn(msg));
  try {
    let health = await engine.health();
    let recovered: { reason: string; movedTo: string } | null = null;
    if (health.status === "down" && engine.recoverUnreadable) {
      recovered = await engine.recoverUnreadable();
      if (recovered) {
        warn(
          `warning: the search index could not be opened (${recovered.reason}); ` +
            `its files were moved to ${recovered.movedTo} and the index is rebuilt from Postgres`,
        );
        health = await engine.health();
      }
    }
    if (health.status === "down") throw new Error(health.message ?? "search engine unavailable");
    const state = await readIndexState(pool, engine.name, {
      documents: health.documents,
      embedderRegistered: health.embedder.registered,
      layoutCurrent: health.layoutCurrent,
    });
    const reason = recovered ? "the index could not be opened" : indexRebuildReason(state);
    if (!reason) return { built: false };
    const result = await fullSync(pool, { engine, embedder, onProgress: opts.onProgress });
    return recovered ? { built: true, reason, recovered, result } : { built: true, reason, result };
  } finally {
    await pool.end();
  }
}
