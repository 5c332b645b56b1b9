/**
 * `npm run alerts:send -- [--dry-run] [--daily|--weekly|--all]`: run the e-mail digest of saved-search alerts by hand
 * (the worker's pg-boss schedule runs it daily at 07:00 and Mondays at 08:00). Default: what a run now would serve (daily, plus
 * weekly on Mondays). --dry-run lists who would get what, sends nothing and changes nothing. Reads DATABASE_URL,
 * SMTP_URL, MAIL_FROM, APP_URL and SUPABASE_SERVICE_ROLE_KEY from the environment or `.env.local`; on the local stack
 * SMTP_URL defaults to the mail catcher (smtp://127.0.0.1:2525).
 */
import { localDatabaseUrl, localEnvFile, readEnvFile } from "../env-file";

/** The launcher's settings file fills what the environment lacks; the database URL is resolved as the launcher does. */
function loadEnv(): void {
  process.env.DATABASE_URL = localDatabaseUrl().url;
  for (const [k, v] of Object.entries(readEnvFile(localEnvFile()))) {
    if (process.env[k] === undefined) process.env[k] = v;
  }
}

async function main(): Promise<void> {
  loadEnv();
  process.env.SMTP_URL ??= `smtp://127.0.0.1:${process.env.MAIL_CATCHER_PORT ?? 2525}`;
  const { runAlertDigest } = await import("../../lib/backend/alerts/run");
  const { closeMail } = await import("../../lib/backend/mail");
  const args = process.argv.slice(2);
  const dryRun = args.includes("--dry-run");
  const frequencies = args.includes("--all") ? (["daily", "weekly"] as const) : args.includes("--weekly") ? (["weekly"] as const) : args.includes("--daily") ? (["daily"] as const) : undefined;
  try {
    const report = await runAlertDigest({ dryRun, frequencies: frequencies ? [...frequencies] : undefined, log: (l) => console.log(l) });
    console.log(JSON.stringify({ ...report, details: report.details.filter((d) => d.status !== "nothing-new") }, null, 2));
  } finally {
    closeMail();
  }
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
