import { createClient } from "@supabase/supabase-js";
import { realtimeOptions, serverAuthOptions } from "../lib/supabase/options";

/**
 * The local stack's scheduled work, run by the launcher (a Supabase project uses pg_cron and a cron job instead; see
 * docs/local-stack.md): the app_events partitions (daily, three months ahead), and the search index sync (incremental every
 * 10 minutes, full every 6 hours). The app reads the index generation the sync writes. Returns a stop function.
 */
export async function startBackgroundJobs(opts: {
  databaseUrl: string;
  supabaseUrl: string;
  serviceRoleKey: string;
  log: (line: string) => void;
  /** The SMTP server of the alert digests (the local mail catcher unless SMTP_URL names another). */
  smtpUrl?: string;
}): Promise<() => Promise<void>> {
  const { startScheduler } = await import("../lib/backend/scheduler");
  const { scheduleSync } = await import("../lib/search/sync");
  const { topicsIndexJob } = await import("../lib/backend/topics/index-build");
  const { phraseCountsJob } = await import("../lib/backend/analysis/judge-phrases");
  const { getSearchEngine } = await import("../lib/search/engine");
  const { config } = await import("../lib/config");
  const serviceDb = createClient(opts.supabaseUrl, opts.serviceRoleKey, { auth: serverAuthOptions, realtime: realtimeOptions });
  const { dashboardStatsJob, refreshDashboardStats } = await import("../lib/backend/dashboard");
  // The caps the database enforces follow this deployment's config (P-79); until then it holds the config defaults.
  const { syncDatabaseLimits } = await import("../lib/backend/limits");
  await syncDatabaseLimits(serviceDb).then(
    (changed) => changed > 0 && opts.log(`database limits: ${changed} set from the configuration`),
    (e: unknown) => opts.log(`database limits not written (the database keeps its values): ${e instanceof Error ? e.message : String(e)}`),
  );
  const { alertDigestJobs } = await import("../lib/backend/alerts/run");
  const digests = alertDigestJobs({ smtpUrl: opts.smtpUrl, databaseUrl: opts.databaseUrl, serviceRoleKey: opts.serviceRoleKey, log: opts.log });
  // The dashboard row: at start (fills it on a first start) and daily (issue 14, item 4). The topics index follows the
  // latest stored topic run (issue 16): at start (storing the default run when none exists) and every minute. The
  // judges' reasoning-phrase counts are filled ahead of the first profile (P-54): at start and every 5 minutes, in
  // batches, never blocking the start. Alert digests need an SMTP server.
  const stopScheduler = startScheduler({
    serviceDb,
    jobs: [dashboardStatsJob(serviceDb), topicsIndexJob(serviceDb, getSearchEngine, { defaultRun: true }),
      phraseCountsJob(serviceDb),
      ...(opts.smtpUrl ? digests : [])],
  });
  const stopSync = scheduleSync(opts.databaseUrl, {
    everyHours: config().SEARCH_SYNC_INTERVAL_HOURS,
    log: opts.log,
    // The dashboard row describes the corpus the index was just rebuilt from (issue 14, item 4).
    afterFullSync: async () => void (await refreshDashboardStats(serviceDb)),
  });
  opts.log(
    `background jobs: search sync (full every ${config().SEARCH_SYNC_INTERVAL_HOURS} h, incremental every 10 min), app_events partitions (daily, 3 months ahead), dashboard statistics (daily and after each full sync), topics index (default run when none; every minute), reasoning-phrase counts (every 5 min)${opts.smtpUrl ? ", alert digests (daily 07:00, Mondays 08:00)" : ", no alert digests (no SMTP_URL)"}`,
  );
  return async () => {
    stopScheduler();
    stopSync();
  };
}
