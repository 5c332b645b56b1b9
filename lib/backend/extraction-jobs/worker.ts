/**
 * The extraction worker: takes job messages from pg-boss, claims the job in extraction_jobs, and
 * works through its `pending` documents, `concurrency` at a time. Safety against a worker that dies mid-job:
 *   - a heartbeat (extraction_workers.beat_at, extraction_jobs.heartbeat_at) every EXTRACTION_HEARTBEAT_SECONDS;
 *   - a reaper on every live worker re-sends a message for a running job whose heartbeat is older than
 *     EXTRACTION_STALE_SECONDS (or a queued job nobody took), and the claim takes a job only from a dead owner;
 *   - a document's result is an upsert keyed by (job_id, document_id) that only lands while the document is still
 *     `pending` and this worker still owns the job, so no document is recorded twice and a zombie writes nothing;
 *   - a job already running in this process is never claimed a second time (a redelivered pg-boss message, e.g. after
 *     its expiry, is answered at once), and only jobs actually running here get heartbeats, so a job whose run ended
 *     abnormally goes stale and is picked up again instead of being kept alive by a beat nobody works behind.
 * A base-schema job writes the shared judgments row only when it was started by an admin (`writes_judgments`, set by
 * the database) and its owner is still an admin; every other base job keeps its values in the job's own results.
 * Cancel is cooperative: the flag is read before every document; documents under way finish, the rest are skipped.
 */
import os from "node:os";
import { randomUUID } from "node:crypto";
import pg from "pg";
import type PgBoss from "pg-boss";
import { config } from "@/lib/config";
import { extractWithModel, extractWithRules, type ExtractionOutcome } from "@/lib/backend/schemas/extract-document";
import { schemaFieldSchema, type SchemaField } from "@/lib/schema/requests/schemas";
import { languageModel } from "@/lib/llm/provider";
import { z } from "zod";
import { EXTRACTION_QUEUE, openBoss, SEND_OPTIONS, type ExtractionMessage } from "./queue";
import { baseSchemaFields, extractBaseWithRules, writeBaseExtraction } from "./base";
import type { PgRow } from "@/lib/supabase/pg-rows";
import { rulesFillability } from "@/lib/extraction/fillability";

export interface ExtractInput {
  text: string;
  fields: SchemaField[];
  mode: "rules" | "model";
  base: boolean;
  documentId: string;
}
export type Extractor = (input: ExtractInput) => Promise<ExtractionOutcome>;

/** The production extractor: rules-v1 without a model, generateObject with one. */
export const defaultExtractor: Extractor = async ({ text, fields, mode, base }) => {
  if (mode === "model") {
    const model = languageModel();
    if (!model) return { status: "failed", error: "no language model is configured on this server", model: config().LLM_MODEL };
    return extractWithModel(text, fields, { model, modelId: config().LLM_MODEL });
  }
  return base ? extractBaseWithRules(text) : extractWithRules(text, fields);
};

/**
 * Why a job with no filled value at all finished so (completed_empty): the fields rules looked for and found nothing,
 * and those only a model can fill.
 */
export function emptyReason(fields: SchemaField[], base: boolean, mode: "rules" | "model"): string {
  const declared = rulesFillability(fields, base);
  const list = (xs: typeof declared) => xs.map((f) => `"${f.label}"`).join(", ");
  const read = mode === "model" ? declared : declared.filter((f) => f.rules);
  const needModel = mode === "model" ? [] : declared.filter((f) => !f.rules);
  const parts = ["No field was filled in any judgment."];
  if (read.length) parts.push(`${mode === "model" ? "The model" : "The rules"} found no value for ${list(read)}.`);
  if (needModel.length) parts.push(`Only a language model can fill ${list(needModel)}; none is configured.`);
  return parts.join(" ").slice(0, 4000);
}

export interface WorkerOptions {
  databaseUrl: string;
  concurrency?: number;
  extractor?: Extractor;
  workerId?: string;
  heartbeatSeconds?: number;
  staleSeconds?: number;
  pollingIntervalSeconds?: number;
  /** The pg-boss queue (EXTRACTION_QUEUE; tests use their own). */
  queue?: string;
  /** This worker's pg-boss also fires the cron schedules (the scheduled jobs share its connection; lib/backend/jobs). */
  schedule?: boolean;
  /** pg-boss maintenance (expiring lost jobs, archiving) every this many seconds (PGBOSS_MAINTENANCE_SECONDS). */
  maintenanceIntervalSeconds?: number;
  log?: (line: string) => void;
}

export interface ExtractionWorker {
  workerId: string;
  /** The worker's pg-boss instance: the scheduled jobs are worked on it too (server/worker/worker.ts). */
  boss: PgBoss;
  /** Graceful: documents under way finish, then the worker stops. */
  stop(): Promise<void>;
  /** Like a killed process: nothing more is written, heartbeats stop, the pool closes (tests of the takeover). */
  kill(): Promise<void>;
  /**
   * Handle one message for this job now, as the queue would (tests of a redelivered message). Resolves false when the
   * job was not taken: already running in this process, finished, or alive under another worker.
   */
  handle(jobId: string): Promise<boolean>;
}

const JobRow = z.object({
  id: z.string(),
  schema_key: z.string(),
  fields: z.array(schemaFieldSchema()).nullable(),
  mode: z.enum(["rules", "model"]),
  promote: z.boolean(),
});

export async function startExtractionWorker(opts: WorkerOptions): Promise<ExtractionWorker> {
  const c = config();
  const workerId = opts.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = opts.concurrency ?? c.EXTRACTION_WORKER_CONCURRENCY;
  const heartbeatMs = (opts.heartbeatSeconds ?? c.EXTRACTION_HEARTBEAT_SECONDS) * 1000;
  const staleSeconds = opts.staleSeconds ?? c.EXTRACTION_STALE_SECONDS;
  const extractor = opts.extractor ?? defaultExtractor;
  const log = opts.log ?? (() => {});
  const queue = opts.queue ?? EXTRACTION_QUEUE;
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: concurrency + 2 });
  pool.on("error", (e) => log(`database: ${e.message}`));
  let dead = false;
  let stopping = false;

  await pool.query(
    `insert into public.extraction_workers (worker_id, host, pid) values ($1, $2, $3)
     on conflict (worker_id) do update set beat_at = now()`,
    [workerId, os.hostname(), process.pid],
  );
  const boss: PgBoss = await openBoss(opts.databaseUrl, {
    supervise: true,
    schedule: opts.schedule ?? false,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds,
    // Room for the scheduled jobs' polling beside the extraction queue's.
    max: opts.schedule ? 5 : 3,
    queue,
  });

  /** Jobs this process is working on now: a second message for one of them is refused, not run alongside. */
  const active = new Set<string>();

  /**
   * Take a job: queued, ours (a run here that ended abnormally; the caller has checked it is not under way), or
   * running under a worker whose heartbeat is stale. `promote`: the database marked it as an admin's base job and its
   * owner is still an admin (checked again here, so a flag set by anything else writes nothing shared).
   */
  async function claim(jobId: string) {
    const { rows } = await pool.query(
      `update public.extraction_jobs j
          set status = 'running', worker_id = $2, heartbeat_at = now(), started_at = coalesce(j.started_at, now())
        where j.id = $1 and j.status in ('queued', 'running')
          and (j.worker_id is null or j.worker_id = $2 or j.heartbeat_at < now() - make_interval(secs => $3))
        returning j.id, j.schema_key, j.fields, j.mode,
          (j.schema_key = 'base' and j.writes_judgments
            and exists (select 1 from auth.users u where u.id = j.user_id and u.raw_app_meta_data ->> 'role' = 'admin')) as promote`,
      [jobId, workerId, staleSeconds],
    );
    return rows[0] ? JobRow.parse(rows[0]) : null;
  }

  /** Record one document's outcome (an admin's base job also writes the judgment, in the same transaction). */
  /** Returns whether the job's owner has asked to cancel it (read by the same statement: no extra round trip). */
  async function record(job: z.infer<typeof JobRow>, documentId: string, outcome: ExtractionOutcome): Promise<boolean> {
    if (dead) return false;
    // Lands only while the document is pending and the job is still ours (a taken-over job's zombie writes nothing).
    const sql = `update public.extraction_job_documents d
            set status = $3, "values" = $4::jsonb, error = $5, model = $6, attempts = d.attempts + 1, finished_at = now()
          where d.job_id = $1 and d.document_id = $2 and d.status = 'pending'
            and exists (select 1 from public.extraction_jobs j where j.id = $1 and j.worker_id = $7)
          returning (select j.cancel_requested from public.extraction_jobs j where j.id = $1) as cancel_requested`;
    const args = [job.id, documentId, outcome.status, outcome.status === "completed" ? JSON.stringify(outcome.values) : null,
      outcome.status === "failed" ? outcome.error : null, outcome.model, workerId];
    const cancelAsked = (r: { rows: { cancel_requested?: boolean }[] }) => r.rows[0]?.cancel_requested === true;
    if (!job.promote) {
      return cancelAsked(await pool.query(sql, args)); // one statement, one round trip: the queue's cost per document
    }
    const client = await pool.connect();
    try {
      await client.query("begin");
      const res = await client.query(sql, args);
      if (res.rowCount === 1) await writeBaseExtraction(client, documentId, outcome);
      await client.query("commit");
      return cancelAsked(res);
    } catch (e) {
      await client.query("rollback").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async function extractOne(job: z.infer<typeof JobRow>, fields: SchemaField[], documentId: string, text: string | undefined): Promise<ExtractionOutcome> {
    if (text === undefined) return { status: "failed", error: "the judgment no longer exists", model: "none" };
    try {
      return await extractor({ text, fields, mode: job.mode, base: job.schema_key === "base", documentId });
    } catch (e) {
      return { status: "failed", error: `extractor error: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`, model: "none" };
    }
  }

  async function runJob(jobId: string): Promise<boolean> {
    if (active.has(jobId)) {
      log(`job ${jobId}: already running in this worker; the repeated message is dropped`);
      return false;
    }
    active.add(jobId);
    try {
      const job = await claim(jobId);
      if (!job) return false; // finished, cancelled, deleted, or alive under another worker
      await work(job);
      return true;
    } finally {
      active.delete(jobId);
    }
  }

  async function work(job: z.infer<typeof JobRow>): Promise<void> {
    const jobId = job.id;
    log(`job ${jobId}: running (${job.mode}${job.schema_key === "base" ? (job.promote ? ", writes judgments" : ", results in the job only") : ""})`);
    const fields = job.schema_key === "base" ? baseSchemaFields() : (job.fields ?? []);
    const { rows } = await pool.query<PgRow<"extraction_job_documents", "document_id">>(
      "select document_id from public.extraction_job_documents where job_id = $1 and status = 'pending' order by position",
      [jobId],
    );
    const todo = rows.map((r) => r.document_id);
    let cancelled = false;
    // The cancel flag is read before a document when the last read is older than 200 ms (shared by the lanes).
    let checkedAt = 0;
    const cancelRequested = async () =>
      (await pool.query<PgRow<"extraction_jobs", "cancel_requested">>("select cancel_requested from public.extraction_jobs where id = $1", [jobId])).rows[0]
        ?.cancel_requested !== false;
    const lane = async () => {
      const texts = new Map<string, string>();
      const mine: string[] = [];
      for (;;) {
        if (dead || stopping || cancelled) return;
        if (!mine.length) {
          // Texts are read a few documents at a time (one round trip), never the whole job at once.
          const take = Math.max(1, Math.min(25, Math.floor(todo.length / (concurrency * 2))));
          mine.push(...todo.splice(0, take));
          if (!mine.length) return;
          const r = await pool.query<PgRow<"judgments", "id" | "full_text">>("select id, full_text from public.judgments where id = any($1::uuid[])", [mine]);
          for (const row of r.rows) texts.set(row.id, row.full_text);
        }
        if (Date.now() - checkedAt > 200) {
          checkedAt = Date.now();
          if (await cancelRequested()) cancelled = true;
        }
        if (cancelled) return;
        const next = mine.shift() as string;
        const outcome = await extractOne(job, fields, next, texts.get(next));
        texts.delete(next);
        // Each write also reads the cancel flag, so a cancel is seen after the document under way, however fast
        // documents go (the time-based check above only covers a lane's first document).
        if (await record(job, next, outcome)) cancelled = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(todo.length, 1)) }, lane));
    if (dead || (stopping && !cancelled)) return; // another worker takes the rest after the stale window
    await finishJob(jobId, cancelled || (await cancelRequested()), emptyReason(fields, job.schema_key === "base", job.mode));
  }

  async function finishJob(jobId: string, cancelled: boolean, reasonIfEmpty: string): Promise<void> {
    if (cancelled) {
      await pool.query(
        "update public.extraction_job_documents set status = 'skipped', finished_at = now() where job_id = $1 and status = 'pending'",
        [jobId],
      );
    }
    const { rows } = await pool.query<PgRow<"extraction_jobs", "status">>(
      `update public.extraction_jobs j
          set status = case
                when $3 then 'cancelled'
                when c.pending > 0 then j.status
                when c.failed = j.total then 'failed'
                when not c.filled then 'completed_empty'
                when c.failed = 0 then 'completed'
                else 'completed_with_errors' end,
              error = case when not $3 and c.pending = 0 and c.failed = j.total and j.total > 0 then 'every document failed' else j.error end,
              status_reason = case when not $3 and c.pending = 0 and c.failed < j.total and not c.filled then $4 else null end,
              finished_at = case when $3 or c.pending = 0 then now() else j.finished_at end
         from (select count(*) filter (where d.status = 'failed') as failed, count(*) filter (where d.status = 'pending') as pending,
                      -- Any value at all in a completed document (sentence_spans is where values were read, not a value).
                      exists (select 1 from public.extraction_job_documents v, jsonb_each(v.values) e
                               where v.job_id = $1 and v.status = 'completed' and jsonb_typeof(v.values) = 'object'
                                 and e.key <> 'sentence_spans' and e.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)) as filled
                 from public.extraction_job_documents d where d.job_id = $1) c
        where j.id = $1 and j.worker_id = $2 and j.status = 'running'
        returning j.status`,
      [jobId, workerId, cancelled, reasonIfEmpty],
    );
    if (rows[0]) log(`job ${jobId}: ${rows[0].status}`);
  }

  async function beat(): Promise<void> {
    await pool.query("update public.extraction_workers set beat_at = now() where worker_id = $1", [workerId]);
    // Only jobs under way here: one whose run ended abnormally must go stale so that it is picked up again.
    await pool.query("update public.extraction_jobs set heartbeat_at = now() where worker_id = $1 and status = 'running' and id = any($2::uuid[])", [
      workerId,
      [...active],
    ]);
    // The reaper: a running job whose worker went quiet, or a queued job no message reached, gets a fresh message.
    const { rows } = await pool.query<PgRow<"extraction_jobs", "id">>(
      `select j.id from public.extraction_jobs j
        where j.queue = $2
          and ((j.status = 'running' and j.heartbeat_at < now() - make_interval(secs => $1))
            or (j.status = 'queued' and j.created_at < now() - make_interval(secs => $1) and j.worker_id is null))
        limit 20`,
      [staleSeconds, queue],
    );
    for (const r of rows) {
      log(`job ${r.id}: its worker is gone or no message reached it; sending it again`);
      await boss.send(queue, { job_id: r.id } satisfies ExtractionMessage, SEND_OPTIONS);
    }
    // Forget workers silent for an hour (their rows only feed the health entry).
    await pool.query("delete from public.extraction_workers where beat_at < now() - interval '1 hour'");
  }
  const timer = setInterval(() => {
    if (!dead) beat().catch((e: Error) => log(`heartbeat: ${e.message}`));
  }, heartbeatMs);
  timer.unref();

  const running = new Set<Promise<boolean>>();
  await boss.work<ExtractionMessage>(queue, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 }, async ([msg]) => {
    if (!msg || dead) return;
    const p = runJob(msg.data.job_id);
    running.add(p);
    try {
      await p;
    } finally {
      running.delete(p);
    }
  });
  log(`extraction worker ${workerId}: ${concurrency} documents at a time, heartbeat every ${heartbeatMs / 1000} s`);
  void beat().catch(() => {});

  return {
    workerId,
    boss,
    handle: (jobId) => runJob(jobId),
    async stop() {
      stopping = true;
      clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await Promise.allSettled([...running]);
      await pool.query("delete from public.extraction_workers where worker_id = $1", [workerId]).catch(() => {});
      await pool.end();
    },
    async kill() {
      dead = true;
      clearInterval(timer);
      await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => {});
      // Documents under way are abandoned (they write nothing once dead); the pool closes when they let go.
      void pool.end().catch(() => {});
    },
  };
}
