/**
 * The worker's side of admin uploads (server/worker/worker.ts): run each queued upload through the importer's
 * recorded entry point (lib/import/runs.ts, as `npm run import` does), end with the incremental search sync so the
 * judgments are searchable, then remove the stored file. A run already finished (a redelivered message) is left alone.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { logger } from "@/lib/logger";
import { runRecordedImport } from "@/lib/import/runs";
import { IMPORT_SOURCES, type ImportSource, type ImportSummary } from "@/lib/import/types";
import { getSearch } from "@/lib/search/engine";
import { incrementalSync } from "@/lib/search/sync";
import { openBoss } from "../extraction-jobs/queue";
import { IMPORT_UPLOAD_QUEUE, type ImportUploadMessage } from "./queue";
import { importUploadDir } from "./upload";

export interface ImportUploadWorker {
  stop(): Promise<void>;
}

/** The closing sync, on this process's search engine (shared with the scheduled syncs: never closed here). */
async function syncSearch(pool: pg.Pool): Promise<ImportSummary["sync"]> {
  const started = Date.now();
  try {
    const r = await incrementalSync(pool, getSearch());
    return { kind: r.kind, documents: r.documents, ms: Date.now() - started };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export async function runImportUpload(databaseUrl: string, pool: pg.Pool, message: ImportUploadMessage): Promise<void> {
  const { rows } = await pool.query<{ source: string; status: string }>("select source, status from public.import_runs where id = $1", [message.run_id]);
  const run = rows[0];
  // Only files under the upload folder are ever read: the message is ours, but a path is checked before it is opened.
  const inside = path.resolve(message.file).startsWith(importUploadDir() + path.sep);
  if (!run || run.status === "succeeded" || !inside || !(IMPORT_SOURCES as readonly string[]).includes(run.source)) {
    if (inside) await rm(path.dirname(message.file), { recursive: true, force: true });
    return;
  }
  await runRecordedImport(
    { source: run.source as ImportSource, inputs: [message.file], databaseUrl },
    {
      origin: "upload",
      runId: message.run_id,
      after: async (s) => {
        s.sync = s.inserted + s.updated > 0 ? await syncSearch(pool) : "skipped";
      },
    },
  );
  await rm(path.dirname(message.file), { recursive: true, force: true });
}

export async function startImportUploadWorker(opts: { databaseUrl: string; pollingIntervalSeconds?: number; log?: (line: string) => void }): Promise<ImportUploadWorker> {
  const log = opts.log ?? ((l: string) => logger.info(l));
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
  const boss = await openBoss(opts.databaseUrl, { queue: IMPORT_UPLOAD_QUEUE });
  await boss.work<ImportUploadMessage>(IMPORT_UPLOAD_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 }, async ([job]) => {
    if (!job) return;
    try {
      await runImportUpload(opts.databaseUrl, pool, job.data);
      log(`import upload ${job.data.run_id} done`);
    } catch (e) {
      log(`import upload ${job.data.run_id} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  });
  return {
    async stop() {
      await boss.stop({ graceful: true, wait: true });
      await pool.end();
    },
  };
}
