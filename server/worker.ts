/**
 * The extraction worker process (issue 18 item 2): `npm run worker`, and started by `npm start` as a supervised child
 * process (server/supervise.ts: restarted when it dies; a job it was working on is taken over by the next instance
 * once its heartbeat is stale, each document recorded once). Reads DATABASE_URL (the environment, else .env.local,
 * else the embedded cluster on POSTGRES_PORT) and works the pg-boss queue EXTRACTION_WORKER_QUEUE (`extraction-job`),
 * EXTRACTION_WORKER_CONCURRENCY documents at a time. SIGINT/SIGTERM: documents under way finish, then it exits.
 */
import { localDatabaseUrl, localEnvFile, readEnvFile } from "./env-file";
import { announceReady, exitWithLauncher } from "./supervise";

async function main() {
  // Started on its own (npm run worker): the launcher's settings file fills what the environment lacks. The database
  // URL is resolved first, as the launcher does (the embedded cluster's URL is derived, never read from the file).
  process.env.DATABASE_URL = localDatabaseUrl().url;
  const fileEnv = readEnvFile(localEnvFile());
  for (const [k, v] of Object.entries(fileEnv)) if (process.env[k] === undefined) process.env[k] = v;
  const databaseUrl = process.env.DATABASE_URL;
  const { config } = await import("../lib/config");
  const { startExtractionWorker } = await import("../lib/backend/extraction-jobs/worker");
  const worker = await startExtractionWorker({ databaseUrl, queue: config().EXTRACTION_WORKER_QUEUE, log: (l) => console.log(`[worker] ${l}`) });
  // Contact-form notifications whose first send failed (lib/backend/content/contact-notify.ts), only where they can be
  // sent: a worker without SMTP_URL and CONTACT_NOTIFY_EMAIL leaves them queued for one that has both.
  let contactNotify: { stop(): Promise<void> } | null = null;
  if (process.env.SMTP_URL && process.env.CONTACT_NOTIFY_EMAIL) {
    const [{ startContactNotifyWorker }, { notifyContactMessage }] = await Promise.all([
      import("../lib/backend/content/contact-notify"),
      import("../lib/backend/content/contact"),
    ]);
    contactNotify = await startContactNotifyWorker({ databaseUrl, notify: notifyContactMessage, log: (l) => console.log(`[worker] ${l}`) });
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("[worker] stopping (documents under way finish first)");
    // pg-boss gives running documents 30 s; past that (a database already gone), exit anyway.
    setTimeout(() => process.exit(0), 40_000).unref();
    await worker.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    await contactNotify?.stop().catch((e: Error) => console.error(`[worker] ${e.message}`));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  // Started by `npm start`: never outlive the launcher. A launcher stopped without passing the signal on (killed, or
  // its wrapper signalled alone) used to leave this process heartbeating against a database that was gone.
  exitWithLauncher(() => void stop(), (l) => console.log(`[worker] ${l}`));
  announceReady({ workerId: worker.workerId });
}

main().catch((e: unknown) => {
  console.error(`[worker] failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
