import type { SupabaseClient } from "@supabase/supabase-js";
import { logger } from "@/lib/logger";

/**
 * A tiny in-process scheduler for the local stack, standing in for pg_cron (which a Supabase project uses: the
 * app_events migration schedules the same job there). The launcher starts it once:
 *
 *   const stop = startScheduler({ serviceDb });
 *
 * Jobs are idempotent, so the rule is simple: run each job at start, then check every hour and run it when its day
 * has come (the 25th for the next app_events partition, spec: Events rule 5) and it has not run yet that day.
 */
export interface ScheduledJob {
  name: string;
  /** Should the job run at `now` (UTC)? */
  due(now: Date): boolean;
  run(): Promise<void>;
}

export interface SchedulerOptions {
  serviceDb: SupabaseClient;
  /** Extra jobs (other modules may add theirs). */
  jobs?: ScheduledJob[];
  checkEveryMs?: number;
  now?: () => Date;
}

/** app_events partitions: this month's and next month's exist; the real work happens on the 25th (UTC). */
export function appEventsPartitionJob(serviceDb: SupabaseClient): ScheduledJob {
  return {
    name: "create_next_app_events_partition",
    due: (now) => now.getUTCDate() === 25,
    run: async () => {
      const { data, error } = await serviceDb.rpc("create_next_app_events_partition");
      if (error) throw new Error(error.message);
      logger.info({ partition: data }, "app_events partitions ensured");
    },
  };
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export function startScheduler(opts: SchedulerOptions): () => void {
  const now = opts.now ?? (() => new Date());
  const jobs = [appEventsPartitionJob(opts.serviceDb), ...(opts.jobs ?? [])];
  const lastRunDay = new Map<string, string>();

  const runJob = async (job: ScheduledJob) => {
    lastRunDay.set(job.name, dayOf(now()));
    try {
      await job.run();
    } catch (e) {
      logger.error({ job: job.name, err: e instanceof Error ? e.message : String(e) }, "scheduled job failed");
    }
  };

  // At start: every job once (idempotent), so a stack that was down on the 25th catches up.
  void Promise.all(jobs.map(runJob));
  const timer = setInterval(() => {
    const t = now();
    for (const job of jobs) if (job.due(t) && lastRunDay.get(job.name) !== dayOf(t)) void runJob(job);
  }, opts.checkEveryMs ?? 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
