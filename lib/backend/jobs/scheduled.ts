/**
 * Every background job that runs on a timer is a pg-boss cron schedule (P-80), worked by the worker process
 * (server/worker/worker.ts, supervised by the launcher) on the same pg-boss instance as the extraction queue:
 *
 *   - one queue per job, named like the job, with policy `singleton`: at most one run of a job is active at a time,
 *     whatever the number of workers (pg-boss refuses a second active job of the queue);
 *   - one `pgboss.schedule` row per job (its cron and time zone); pg-boss's clock fires it once per slot, however many
 *     workers watch the clock (its own per-slot singleton), so two workers never send the same digest twice;
 *   - a run is a pg-boss job: it survives the worker. A worker killed mid-run leaves the job active until
 *     SCHEDULED_JOB_EXPIRE_SECONDS, then pg-boss fails it and a live worker retries it; a slot fired while no worker
 *     runs waits in the queue for the next one;
 *   - a failed run is retried after the job's retry delay (pg-boss retryLimit / retryDelay), not a day later;
 *   - a job marked `atStart` is also queued when a worker starts (deduplicated per minute), so a fresh stack has its
 *     partitions, dashboard row and topics index without waiting for the first slot.
 * Each run is also recorded in scheduled_job_runs (record_job_run) for /admin/system, best effort.
 */
import type PgBoss from "pg-boss";
import type { DbClient } from "@/lib/supabase/db-client";
import { logger } from "@/lib/logger";

export interface ScheduledJob {
  /** The pg-boss queue and schedule name; also the name of its rows in scheduled_job_runs. */
  name: string;
  /** Five-field cron expression, read in `tz`. */
  cron: string;
  /** IANA time zone of the cron (pg-boss's default: UTC). */
  tz?: string;
  /** Also queued once when a worker starts (an idempotent catch-up). */
  atStart?: boolean;
  /** Retries of a failed run, and the wait before each (seconds). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  run(): Promise<void>;
}

export interface ScheduledJobsOptions {
  boss: PgBoss;
  jobs: ScheduledJob[];
  /** Which jobs this process works: every one, or these names (every schedule is registered either way). */
  work: "all" | string[];
  /** A run active this long is presumed lost with its worker (pg-boss expiry; then retried). */
  expireSeconds: number;
  /** The retry delay of a job that sets none (SCHEDULED_JOB_RETRY_SECONDS). */
  retryDelaySeconds?: number;
  /** scheduled_job_runs bookkeeping (omitted: none). */
  serviceDb?: DbClient;
  /** Prefix of every queue name: a test's own queues, so the real ones stay untouched. */
  prefix?: string;
  /** How often each queue is polled (default 5 s: the jobs run at minute granularity). */
  pollingIntervalSeconds?: number;
  log?: (line: string) => void;
}

export interface ScheduledJobsHandle {
  /** The queue names registered, and the ones this process works. */
  registered: string[];
  worked: string[];
  /** Stop working the queues (the boss itself is stopped by its owner). */
  stop(): Promise<void>;
}

/** The last run and result of each job, for /admin/system (best effort: bookkeeping never fails a job). */
async function recordJobRun(serviceDb: DbClient, name: string, failure: string | null, startedAt: string): Promise<void> {
  try {
    const { error } = await serviceDb.rpc("record_job_run", { p_name: name, p_ok: failure === null, p_error: failure ?? undefined, p_started_at: startedAt });
    if (error) logger.warn({ job: name, err: error.message }, "could not record the job run");
  } catch (e) {
    logger.warn({ job: name, err: e instanceof Error ? e.message : String(e) }, "could not record the job run");
  }
}

/** The pg-boss queue settings of a job: one active run at a time, its retries, the expiry that detects a lost worker. */
export function queueOptions(job: ScheduledJob, name: string, expireSeconds: number, retryDelaySeconds = 60): PgBoss.Queue {
  return { name, policy: "singleton", retryLimit: job.retryLimit ?? 2, retryDelay: job.retryDelaySeconds ?? retryDelaySeconds, expireInSeconds: expireSeconds };
}

export async function startScheduledJobs(o: ScheduledJobsOptions): Promise<ScheduledJobsHandle> {
  const log = o.log ?? (() => undefined);
  const prefix = o.prefix ?? "";
  const registered: string[] = [];
  const worked: string[] = [];
  for (const job of o.jobs) {
    const name = prefix + job.name;
    const options = queueOptions(job, name, o.expireSeconds, o.retryDelaySeconds);
    // createQueue leaves an existing queue as it was; updateQueue brings its settings to this release's.
    await o.boss.createQueue(name, options);
    await o.boss.updateQueue(name, options);
    await o.boss.schedule(name, job.cron, {}, { tz: job.tz ?? "UTC" });
    registered.push(name);
  }
  for (const job of o.jobs) {
    if (o.work !== "all" && !o.work.includes(job.name)) continue;
    const name = prefix + job.name;
    await o.boss.work(name, { batchSize: 1, pollingIntervalSeconds: o.pollingIntervalSeconds ?? 5 }, async () => {
      const startedAt = new Date().toISOString();
      try {
        await job.run();
      } catch (e) {
        const failure = e instanceof Error ? e.message : String(e);
        log(`scheduled job ${job.name} failed: ${failure}`);
        if (o.serviceDb) await recordJobRun(o.serviceDb, job.name, failure, startedAt);
        throw e; // pg-boss retries it after the queue's retry delay
      }
      if (o.serviceDb) await recordJobRun(o.serviceDb, job.name, null, startedAt);
    });
    worked.push(name);
    // One catch-up run per minute however many workers start (pg-boss's singleton slot).
    if (job.atStart) await o.boss.send(name, {}, { singletonKey: "at-start", singletonSeconds: 60 });
  }
  return {
    registered,
    worked,
    async stop() {
      for (const name of worked) await o.boss.offWork(name).catch(() => undefined);
    },
  };
}

/** SCHEDULED_JOBS: "all", "none", or a comma list of job names. */
export function parseScheduledJobsSetting(value: string): "all" | "none" | string[] {
  const v = value.trim();
  if (v === "all" || v === "none") return v;
  return v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
