/**
 * Every import run recorded in `public.import_runs` (docs/admin.md, "Imports"): the entry point that the command
 * (`npm run import`, `npm run ingest`) and the worker's upload job call instead of `runImport`. The row is opened
 * before the first record, its progress (records read, bytes) moves as the run goes, and it is closed with the
 * summary's counts and rejected records. Kept beside run.ts rather than inside it so the importer's own loop stays
 * as it is. A run with no database (a dry run without DATABASE_URL) is not recorded. While it runs the row is touched
 * every HEARTBEAT_MS, so a run whose process died shows as "interrupted" after 2 minutes (the rule is SQL's:
 * public.import_run_status, migration 20261210000100), and opening a run records those.
 */
import pg from "pg";
import { runImport, type ImportOptions } from "./run";
import type { ImportSummary } from "./types";

export interface RecordOptions {
  origin: "cli" | "upload";
  /** The queued row of an upload to run; without it a new row is opened. */
  runId?: string;
  /** Work after the import and before the row is closed (the closing search sync, which sets `summary.sync`). */
  after?: (summary: ImportSummary) => Promise<void>;
  /** How often progress is written; default 1 s. */
  progressEveryMs?: number;
}

export type RecordedSummary = ImportSummary & { run_id?: string };

/** Sign of life of a running run: well under the 2 minutes after which public.import_run_status calls it interrupted. */
const HEARTBEAT_MS = 30_000;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 4000);

export async function runRecordedImport(opts: ImportOptions, rec: RecordOptions): Promise<RecordedSummary> {
  if (!opts.databaseUrl) {
    const summary = await runImport(opts);
    await rec.after?.(summary);
    return summary;
  }
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    const runId = await openRun(client, opts, rec);
    // The closing sync can outlast a batch's progress by minutes: the heartbeat is separate from progress.
    const heartbeat = setInterval(() => {
      client.query("update public.import_runs set updated_at = now() where id = $1 and status = 'running'", [runId]).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      return await recordRun(client, runId, opts, rec);
    } finally {
      clearInterval(heartbeat);
    }
  } finally {
    await client.end();
  }
}

async function recordRun(client: pg.Client, runId: string, opts: ImportOptions, rec: RecordOptions): Promise<RecordedSummary> {
  const every = rec.progressEveryMs ?? 1_000;
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  let busy = false;
  const onProgress: ImportOptions["onProgress"] = (p) => {
    opts.onProgress?.(p);
    const now = Date.now();
    // One write in flight at a time, at most one a second: progress is for the page's eyes, not bookkeeping.
    if (busy || now - lastWrite < every) return;
    busy = true;
    lastWrite = now;
    writing = client
      .query("update public.import_runs set read = $2, bytes_read = $3, bytes_total = $4, updated_at = now() where id = $1", [runId, p.read, p.bytes, p.totalBytes])
      .catch(() => undefined)
      .finally(() => (busy = false));
  };
  let summary: ImportSummary;
  try {
    summary = await runImport({ ...opts, onProgress });
    await rec.after?.(summary);
  } catch (e) {
    await writing;
    await client.query("update public.import_runs set status = 'failed', error = $2, finished_at = now(), updated_at = now() where id = $1", [runId, errorText(e)]);
    throw e;
  }
  await writing;
  await closeRun(client, runId, summary);
  return { ...summary, run_id: runId };
}

async function openRun(client: pg.Client, opts: ImportOptions, rec: RecordOptions): Promise<string> {
  await client.query("select public.close_interrupted_import_runs()");
  if (rec.runId) {
    const { rows } = await client.query<{ id: string }>(
      "update public.import_runs set status = 'running', started_at = now(), updated_at = now(), dry_run = $2 where id = $1 returning id",
      [rec.runId, !!opts.dryRun],
    );
    if (!rows[0]) throw new Error(`import run ${rec.runId} does not exist`);
    return rows[0].id;
  }
  const { rows } = await client.query<{ id: string }>(
    `insert into public.import_runs (source, origin, status, inputs, dry_run, started_at)
     values ($1, $2, 'running', $3, $4, now()) returning id`,
    [opts.source, rec.origin, opts.inputs.slice(0, 1000), !!opts.dryRun],
  );
  return rows[0].id;
}

async function closeRun(client: pg.Client, runId: string, s: ImportSummary): Promise<void> {
  const warnings = s.warnings.length + (s.truncated?.warnings ?? 0);
  await client.query(
    `update public.import_runs
        set status = 'succeeded', files = $2, read = $3, valid = $4, inserted = $5, updated = $6, skipped = $7, rejected = $8,
            warnings = $9, rejections = $10::jsonb, licence = $11, notice = $12, sync = $13::jsonb,
            bytes_read = greatest(bytes_read, bytes_total), finished_at = now(), updated_at = now()
      where id = $1`,
    [runId, s.files, s.read, s.valid, s.inserted, s.updated, s.skipped, s.rejected, warnings, JSON.stringify(s.rejections), s.licence, s.notice ?? null, s.sync === undefined ? null : JSON.stringify(s.sync)],
  );
}
