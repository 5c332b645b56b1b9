/**
 * The scheduled jobs of this service (worked by server/worker/worker.ts through ./scheduled.ts). Every job is idempotent.
 *
 * | job                               | cron                         | also at start |
 * | search_sync_incremental           | every 10 min                 | no (the launcher built the index) |
 * | search_sync_full                  | every SEARCH_SYNC_INTERVAL_HOURS h | no |
 * | create_next_app_events_partition  | daily 00:15 UTC              | yes |
 * | refresh_dashboard_stats           | daily 00:30 UTC (and after each full sync) | yes |
 * | rebuild_topics_index              | every minute                 | yes (stores the default topic run when none) |
 * | fill_reasoning_phrase_counts      | every 5 min                  | yes |
 * | alert_digest_daily                | 07:00 server time            | no (needs an SMTP server) |
 * | alert_digest_weekly               | Mondays 08:00 server time    | no |
 *
 * The search index is written by the worker that runs the sync; an app serving the same index folder notices a new
 * generation through state.json (the LanceDB engine checks it once a second) and reloads, as it did when the launcher
 * ran the sync. The two syncs of one worker never overlap (one chain per process; each queue is a singleton besides).
 */
import pg from "pg";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { fullSync, incrementalSync } from "@/lib/search/sync";
import { getSearch, getSearchEngine } from "@/lib/search/engine";
import { refreshDashboardStats, dashboardStatsJob } from "../dashboard";
import { topicsIndexJob } from "../topics/index-build";
import { phraseCountsJob } from "../analysis/judge-phrases";
import { alertDigestJobs } from "../alerts/run";
import type { ScheduledJob } from "./scheduled";

/** app_events partitions: this month and the next three exist; daily, so a stack that missed a day catches up. */
export function appEventsPartitionJob(serviceDb: DbClient): ScheduledJob {
  return {
    name: "create_next_app_events_partition",
    cron: "15 0 * * *",
    atStart: true,
    run: async () => {
      const { data, error } = await serviceDb.rpc("create_next_app_events_partition");
      if (error) throw new Error(error.message);
      logger.info({ partition: data }, "app_events partitions ensured");
    },
  };
}

/** The search index sync jobs: incremental every 10 minutes, full every SEARCH_SYNC_INTERVAL_HOURS hours. */
export function searchSyncJobs(opts: { databaseUrl: string; everyHours: number; log: (line: string) => void; afterFullSync?: () => Promise<void> }): ScheduledJob[] {
  // One sync at a time in this process: a full and an incremental run must not write the index at once.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const withPool = async <T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> => {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
    try {
      return await fn(pool);
    } finally {
      await pool.end().catch(() => undefined);
    }
  };
  const engines = () => {
    const holder = getSearch();
    return { engine: holder.engine, embedder: holder.embedder };
  };
  return [
    {
      name: "search_sync_incremental",
      cron: "*/10 * * * *",
      retryLimit: 0, // the next slot is ten minutes away
      run: () =>
        serial(() =>
          withPool(async (pool) => {
            const r = await incrementalSync(pool, engines());
            if (r.documents + r.deleted > 0) opts.log(`search incremental sync: ${r.documents} upserted, ${r.deleted} deleted`);
          }),
        ),
    },
    {
      name: "search_sync_full",
      cron: `0 */${opts.everyHours} * * *`,
      retryDelaySeconds: 600,
      run: () =>
        serial(() =>
          withPool(async (pool) => {
            const r = await fullSync(pool, engines());
            opts.log(`search full sync: ${r.documents} documents, ${r.chunks} chunks in ${r.durationMs} ms`);
            // The dashboard row describes the corpus the index was just rebuilt from.
            await opts.afterFullSync?.().catch((e: unknown) => opts.log(`after full sync: ${e instanceof Error ? e.message : String(e)}`));
          }),
        ),
    },
  ];
}

export interface JobPlanOptions {
  databaseUrl: string;
  serviceDb: DbClient;
  serviceRoleKey: string;
  /** The SMTP server of the alert digests; without one there are no digest jobs. */
  smtpUrl?: string;
  log: (line: string) => void;
}

/** Every scheduled job of the service, in one list (the health report and the schedule test read the same names). */
export function jobPlan(o: JobPlanOptions): ScheduledJob[] {
  const everyHours = config().SEARCH_SYNC_INTERVAL_HOURS;
  return [
    ...searchSyncJobs({ databaseUrl: o.databaseUrl, everyHours, log: o.log, afterFullSync: async () => void (await refreshDashboardStats(o.serviceDb)) }),
    appEventsPartitionJob(o.serviceDb),
    dashboardStatsJob(o.serviceDb),
    topicsIndexJob(o.serviceDb, getSearchEngine, { defaultRun: true }),
    phraseCountsJob(o.serviceDb),
    ...(o.smtpUrl ? alertDigestJobs({ smtpUrl: o.smtpUrl, databaseUrl: o.databaseUrl, serviceRoleKey: o.serviceRoleKey, log: o.log }) : []),
  ];
}

/** The names and crons of the plan, for the log line and docs (the digests only with an SMTP server). */
export function describePlan(jobs: ScheduledJob[]): string {
  return jobs.map((j) => `${j.name} (${j.cron}${j.tz && j.tz !== "UTC" ? ` ${j.tz}` : ""})`).join(", ");
}
