/**
 * The digest job wired to this server's settings: DATABASE_URL (the job reads across users, see ./digest.ts),
 * SMTP_URL / MAIL_FROM through lib/backend/mail, APP_URL for the links, the unsubscribe secret. Used by the worker's
 * pg-boss cron jobs (daily 07:00 and Mondays 08:00 server time), `npm run alerts:send` and POST /api/admin/alerts/run.
 * A run while another one sends is refused with 409 ALERT_RUN_IN_PROGRESS (./digest.ts); pg-boss retries a refused
 * scheduled run an hour later.
 */
import pg from "pg";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import type { AlertFrequency } from "@/lib/schema/requests/accounts";
import { sendMail } from "../mail";
import { runDigest, type DigestReport } from "./digest";
import { unsubscribeSecret } from "./token";
import type { ScheduledJob } from "../jobs/scheduled";

let pool: pg.Pool | null = null;

function jobPool(databaseUrl = config().DATABASE_URL): pg.Pool {
  if (!databaseUrl) throw new ApiError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: the digest job reads the database directly.");
  // One connection per user served at once (ALERT_DIGEST_CONCURRENCY), plus the one holding the run lock (./digest.ts).
  pool ??= new pg.Pool({ connectionString: databaseUrl, max: config().ALERT_DIGEST_CONCURRENCY + 1, connectionTimeoutMillis: config().UPSTREAM_TIMEOUT_MS });
  return pool;
}

export interface RunAlertsOptions {
  dryRun?: boolean;
  frequencies?: AlertFrequency[];
  databaseUrl?: string;
  smtpUrl?: string;
  appUrl?: string;
  /** The launcher passes the key it holds (its own process environment may not carry it). */
  serviceRoleKey?: string;
  log?: (line: string) => void;
}

export async function runAlertDigest(o: RunAlertsOptions = {}): Promise<DigestReport> {
  const c = config();
  const smtpUrl = o.smtpUrl ?? c.SMTP_URL;
  if (!smtpUrl && !o.dryRun) throw new ApiError("MAIL_NOT_CONFIGURED");
  return runDigest({
    pool: jobPool(o.databaseUrl),
    send: (m) => sendMail(m, smtpUrl),
    appUrl: o.appUrl ?? c.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`,
    tokenSecret: unsubscribeSecret(o.serviceRoleKey),
    frequencies: o.frequencies,
    dryRun: o.dryRun,
    log: o.log,
  });
}

/** The server's time zone: the digests go out at 07:00 and 08:00 where the server is. */
export const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * The worker's digest jobs (pg-boss cron, lib/backend/jobs): 07:00 every day and 08:00 on Mondays, server time zone;
 * the weekly alerts go out with the Monday 08:00 run, the daily ones with every 07:00 run. pg-boss fires each slot
 * once whatever the number of workers, and keeps one run of a queue active at a time. A refused or failed run is
 * retried an hour later, three times.
 */
export function alertDigestJobs(opts: Omit<RunAlertsOptions, "dryRun" | "frequencies"> = {}): ScheduledJob[] {
  const run = (frequencies: AlertFrequency[]) => async () => {
    const r = await runAlertDigest({ ...opts, frequencies });
    opts.log?.(`alert digest (${frequencies.join("+")}): ${r.mailsSent} sent, ${r.mailsFailed} failed, ${r.judgmentsListed} judgments`);
  };
  return [
    { name: "alert_digest_daily", cron: "0 7 * * *", tz: serverTimeZone(), retryLimit: 3, retryDelaySeconds: 3600, run: run(["daily"]) },
    { name: "alert_digest_weekly", cron: "0 8 * * 1", tz: serverTimeZone(), retryLimit: 3, retryDelaySeconds: 3600, run: run(["weekly"]) },
  ];
}
