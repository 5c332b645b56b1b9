/**
 * The worker process: every background job runs here, on one pg-boss instance (P-80). `npm run worker`, and
 * started by `npm start` as a supervised child process (server/supervise.ts: restarted when it dies).
 *   - extraction jobs: the pg-boss queue EXTRACTION_WORKER_QUEUE (`extraction-job`), EXTRACTION_WORKER_CONCURRENCY
 *     documents at a time; a job it was working on is taken over by the next instance once its heartbeat is stale,
 *     each document recorded once;
 *   - scheduled jobs (lib/backend/jobs/plan.ts): search sync, app_events partitions, dashboard statistics, topics
 *     index, reasoning-phrase counts, alert digests (with an SMTP server), as pg-boss cron schedules; a run lost with a
 *     killed worker is retried by the next one. SCHEDULED_JOBS picks them ("all", "none", or names).
 *   - files uploaded on /admin/imports: the pg-boss queue `import-upload`, one file at a time, each run through the
 *     importer and the closing search sync (lib/backend/imports/worker.ts).
 * Reads DATABASE_URL (the environment, else .env.local, else the embedded cluster on POSTGRES_PORT); the scheduled jobs
 * also need SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (without them it works extraction jobs only).
 * SIGINT/SIGTERM: work under way finishes, then it exits.
 */
import type PgBoss from "pg-boss";
import type { DbClient } from "../../lib/supabase/db-client";
import { localDatabaseUrl, localEnvFile, readEnvFile } from "../env-file";
import { announceReady, exitWithLauncher } from "../supervise";

async function main() {
  // Started on its own (npm run worker): the launcher's settings file fills what the environment lacks. The database
  // URL is resolved first, as the launcher does (the embedded cluster's URL is derived, never read from the file).
  process.env.DATABASE_URL = localDatabaseUrl().url;
  const fileEnv = readEnvFile(localEnvFile());
  for (const [k, v] of Object.entries(fileEnv)) if (process.env[k] === undefined) process.env[k] = v;
  const databaseUrl = process.env.DATABASE_URL;
  const { config } = await import("../../lib/config");
  const { startExtractionWorker } = await import("../../lib/backend/extraction-jobs/worker");
  const { parseScheduledJobsSetting } = await import("../../lib/backend/jobs/scheduled");
  const c = config();
  const log = (l: string) => console.log(`[worker] ${l}`);
  const wanted = parseScheduledJobsSetting(c.SCHEDULED_JOBS);
  const canSchedule = Boolean(c.SUPABASE_URL && c.SUPABASE_SERVICE_ROLE_KEY);
  if (wanted !== "none" && !canSchedule) log("no SUPABASE_URL or service role key: no scheduled jobs (extraction jobs only)");
  const schedule = wanted !== "none" && canSchedule;
  const worker = await startExtractionWorker({
    databaseUrl,
    queue: c.EXTRACTION_WORKER_QUEUE,
    schedule,
    maintenanceIntervalSeconds: c.PGBOSS_MAINTENANCE_SECONDS,
    log,
  });
  // The caps the database enforces follow this deployment's config (P-81); until written it holds the config defaults.
  const serviceDb = canSchedule ? await serviceClient() : null;
  if (serviceDb) await syncLimits(serviceDb, log);
  let scheduled: { stop(): Promise<void> } | null = null;
  if (schedule && serviceDb) scheduled = await startScheduled(worker.boss, serviceDb, databaseUrl, wanted, log);
  // Contact-form notifications whose first send failed (lib/backend/content/contact-notify.ts), only where they can be
  // sent: a worker without SMTP_URL and CONTACT_NOTIFY_EMAIL leaves them queued for one that has both.
  let contactNotify: { stop(): Promise<void> } | null = null;
  if (process.env.SMTP_URL && process.env.CONTACT_NOTIFY_EMAIL) {
    const [{ startContactNotifyWorker }, { notifyContactMessage }] = await Promise.all([
      import("../../lib/backend/content/contact-notify"),
      import("../../lib/backend/content/contact"),
    ]);
    contactNotify = await startContactNotifyWorker({ databaseUrl, notify: notifyContactMessage, log });
  }
  // Files uploaded on /admin/imports (lib/backend/imports): every worker works them, they need only the database.
  const { startImportUploadWorker } = await import("../../lib/backend/imports/worker");
  const importUploads = await startImportUploadWorker({ databaseUrl, log });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("[worker] stopping (documents under way finish first)");
    // pg-boss gives running documents 30 s; past that (a database already gone), exit anyway.
    setTimeout(() => process.exit(0), 40_000).unref();
    await scheduled?.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    await worker.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    await contactNotify?.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    await importUploads.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  // Started by `npm start`: never outlive the launcher. A launcher stopped without passing the signal on (killed, or
  // its wrapper signalled alone) used to leave this process heartbeating against a database that was gone.
  exitWithLauncher(() => void stop(), (l) => console.log(`[worker] ${l}`));
  announceReady({ workerId: worker.workerId });
}

/** The service-role client of the worker's scheduled work and limits (one per process). */
async function serviceClient(): Promise<DbClient> {
  const { createClient } = await import("@supabase/supabase-js");
  const { realtimeOptions, serverAuthOptions } = await import("../../lib/supabase/options");
  const { config } = await import("../../lib/config");
  const c = config();
  return createClient(c.SUPABASE_URL as string, c.SUPABASE_SERVICE_ROLE_KEY as string, { auth: serverAuthOptions, realtime: realtimeOptions });
}

/** Write this deployment's configured caps into the database (P-81). */
async function syncLimits(serviceDb: DbClient, log: (l: string) => void) {
  const { syncDatabaseLimits } = await import("../../lib/backend/limits");
  await syncDatabaseLimits(serviceDb).then(
    (changed) => changed > 0 && log(`database limits: ${changed} set from the configuration`),
    (e: unknown) => log(`database limits not written (the database keeps its values): ${e instanceof Error ? e.message : String(e)}`),
  );
}

/** Register every schedule of the plan on the worker's pg-boss and work the wanted ones. */
async function startScheduled(boss: PgBoss, serviceDb: DbClient, databaseUrl: string, work: "all" | string[], log: (l: string) => void) {
  const { config } = await import("../../lib/config");
  const { jobPlan, describePlan } = await import("../../lib/backend/jobs/plan");
  const { startScheduledJobs } = await import("../../lib/backend/jobs/scheduled");
  const c = config();
  const jobs = jobPlan({ databaseUrl, serviceDb, serviceRoleKey: c.SUPABASE_SERVICE_ROLE_KEY as string, smtpUrl: c.SMTP_URL, log });
  const handle = await startScheduledJobs({ boss, jobs, work, expireSeconds: c.SCHEDULED_JOB_EXPIRE_SECONDS, retryDelaySeconds: c.SCHEDULED_JOB_RETRY_SECONDS, serviceDb, log });
  log(`scheduled jobs (pg-boss cron): ${describePlan(jobs)}${c.SMTP_URL ? "" : "; no alert digests (no SMTP_URL)"}`);
  log(`working ${work === "all" ? "every scheduled job" : handle.worked.join(", ") || "no scheduled job"}`);
  return handle;
}

main().catch((e: unknown) => {
  console.error(`[worker] failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
