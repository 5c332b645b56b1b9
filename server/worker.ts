/**
 * The extraction worker process (issue 18 item 2): `npm run worker`, and started by `npm start` as a child process.
 * Reads DATABASE_URL (the environment, else .env.local) and works the pg-boss queue `extraction-job`,
 * EXTRACTION_WORKER_CONCURRENCY documents at a time. SIGINT/SIGTERM: documents under way finish, then it exits.
 */
import path from "node:path";
import { readEnvFile } from "./env-file";
import { repoRoot } from "./paths";

async function main() {
  // Started on its own (npm run worker): the launcher's settings file fills what the environment lacks.
  if (!process.env.DATABASE_URL) {
    const fileEnv = readEnvFile(path.join(repoRoot, ".env.local"));
    for (const [k, v] of Object.entries(fileEnv)) if (process.env[k] === undefined) process.env[k] = v;
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("[worker] DATABASE_URL is not set (environment or .env.local): the extraction queue lives in the database.");
    process.exit(1);
  }
  const { startExtractionWorker } = await import("../lib/backend/extraction-jobs/worker");
  const worker = await startExtractionWorker({ databaseUrl, log: (l) => console.log(`[worker] ${l}`) });
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
  const launcher = Number(process.env.WORKER_LAUNCHER_PID);
  if (Number.isInteger(launcher) && launcher > 0) {
    setInterval(() => {
      try {
        process.kill(launcher, 0);
      } catch {
        console.log("[worker] the launcher is gone");
        void stop();
      }
    }, 2000).unref();
  }
}

main().catch((e: Error) => {
  console.error(`[worker] failed: ${e.message}`);
  process.exit(1);
});
