import type { DbClient } from "@/lib/supabase/db-client";
import { logger } from "@/lib/logger";

/**
 * A tiny in-process scheduler for the local stack, standing in for pg_cron (which a Supabase project uses: the
 * app_events migration schedules the same job there). The launcher starts it once:
 *
 *   const stop = startScheduler({ serviceDb });
 *
 * Jobs are idempotent, so the rule is simple: run each job at start, then check every hour and run it when its day
 * has come and it has not run yet that day. A failed run is retried at the next hourly check (not a month later).
 */
export interface ScheduledJob {
  name: string;
  /** Should the job run at `now` (UTC)? */
  due(now: Date): boolean;
  run(): Promise<void>;
  /**
   * Run at start and then every this many ms instead of once a day (a cheap idempotent check, e.g. the topics index
   * following the latest stored topic run).
   */
  everyMs?: number;
}

export interface SchedulerOptions {
  serviceDb: DbClient;
  /** Extra jobs (other modules may add theirs). */
  jobs?: ScheduledJob[];
  checkEveryMs?: number;
  now?: () => Date;
}

/**
 * app_events partitions: this month and the next three exist (20260110000000_app_events_default_partition.sql).
 * Daily, not only on the 25th (spec: Events rule 5 asks for at least that): the call is a no-op when all exist, and a
 * stack that missed a day catches up the next (issue 12, M7).
 */
export function appEventsPartitionJob(serviceDb: DbClient): ScheduledJob {
  return {
    name: "create_next_app_events_partition",
    due: () => true,
    run: async () => {
      const { data, error } = await serviceDb.rpc("create_next_app_events_partition");
      if (error) throw new Error(error.message);
      logger.info({ partition: data }, "app_events partitions ensured");
    },
  };
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

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export function startScheduler(opts: SchedulerOptions): () => void {
  const now = opts.now ?? (() => new Date());
  const all = [appEventsPartitionJob(opts.serviceDb), ...(opts.jobs ?? [])];
  const jobs = all.filter((j) => j.everyMs === undefined);
  const frequent = all.filter((j) => j.everyMs !== undefined);
  const lastRunDay = new Map<string, string>();

  const runJob = async (job: ScheduledJob) => {
    lastRunDay.set(job.name, dayOf(now()));
    const startedAt = new Date().toISOString();
    let failure: string | null = null;
    try {
      await job.run();
    } catch (e) {
      // Not done today: the next check runs it again.
      lastRunDay.delete(job.name);
      failure = e instanceof Error ? e.message : String(e);
      logger.error({ job: job.name, err: failure }, "scheduled job failed");
    }
    await recordJobRun(opts.serviceDb, job.name, failure, startedAt);
  };

  // At start: every job that is due once (idempotent), so a stack that was down on the 25th catches up; a job with a
  // time of day (the alert digests) waits for it.
  void Promise.all(jobs.filter((job) => job.due(now())).map(runJob));
  const timer = setInterval(() => {
    const t = now();
    for (const job of jobs) if (job.due(t) && lastRunDay.get(job.name) !== dayOf(t)) void runJob(job);
  }, opts.checkEveryMs ?? 3_600_000);
  timer.unref();
  const frequentTimers = frequent.map((job) => {
    const runFrequent = () =>
      job.run().catch((e: unknown) => logger.error({ job: job.name, err: e instanceof Error ? e.message : String(e) }, "scheduled job failed"));
    void runFrequent();
    const t = setInterval(() => void runFrequent(), job.everyMs);
    t.unref();
    return t;
  });
  return () => {
    clearInterval(timer);
    for (const t of frequentTimers) clearInterval(t);
  };
}
