/**
 * The extraction queue on pg-boss: its schema `pgboss` lives in the app's own Postgres, so a deploy
 * needs nothing new. One pg-boss message per extraction job ({job_id}); the job's documents are rows of
 * extraction_job_documents, worked through by the worker (./worker.ts).
 */
import PgBoss from "pg-boss";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";

export const EXTRACTION_QUEUE = "extraction-job";
export interface ExtractionMessage {
  job_id: string;
}

/**
 * pg-boss over this database; creates its schema and our queue on first use (both idempotent). `schedule`: this
 * instance watches the clock and fires the cron schedules (the worker's, lib/backend/jobs); `supervise`: it expires
 * lost jobs and archives finished ones every `maintenanceIntervalSeconds`.
 */
export async function openBoss(
  databaseUrl: string,
  opts: { supervise?: boolean; schedule?: boolean; maintenanceIntervalSeconds?: number; max?: number; queue?: string } = {},
): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: "pgboss",
    supervise: opts.supervise ?? false,
    schedule: opts.schedule ?? false,
    max: opts.max ?? 2,
    ...(opts.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds } : {}),
  });
  // pg-boss reports connection trouble as events; an unhandled 'error' event would end the process.
  boss.on("error", (e: Error) => console.error(`[extraction-queue] ${e.message}`));
  await boss.start();
  await boss.createQueue(opts.queue ?? EXTRACTION_QUEUE);
  return boss;
}

/**
 * Send options. Liveness is ours (heartbeat + reaper, worker.ts), not pg-boss's expiry: a message is only expired (and
 * then redelivered) when its handler outlives it, and a 5,000-document model job can run for hours, so the expiry is
 * 12 h (pg-boss refuses 24 h or more). A redelivery is harmless anyway: a job already running in a worker's process
 * is not claimed again, and one alive under another worker is not taken from it.
 */
export const MESSAGE_EXPIRY_SECONDS = 12 * 3600;
export const SEND_OPTIONS: PgBoss.SendOptions = { retryLimit: 3, retryDelay: 5, expireInSeconds: MESSAGE_EXPIRY_SECONDS };

let sender: Promise<PgBoss> | null = null;

/** The app's sending side (one connection pool per server process). */
export async function enqueueExtraction(jobId: string): Promise<void> {
  const url = config().DATABASE_URL;
  if (!url) throw new ApiError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: the extraction queue lives in the database.");
  sender ??= openBoss(url).catch((e: unknown) => {
    sender = null;
    throw e;
  });
  const boss = await sender;
  await boss.send(EXTRACTION_QUEUE, { job_id: jobId } satisfies ExtractionMessage, SEND_OPTIONS);
}
