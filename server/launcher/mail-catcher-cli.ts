/**
 * The local mail catcher (./mail-catcher.ts) as a process of its own, restarted by the launcher when it dies
 * (server/supervise.ts). Settings: DATABASE_URL, MAIL_CATCHER_PORT. Once listening it tells the launcher its URL; it
 * stops with SIGTERM/SIGINT and when the launcher is gone.
 */
import { startMailCatcher } from "./mail-catcher";
import { announceReady, exitWithLauncher } from "../supervise";

async function main() {
  const log = (l: string) => process.stdout.write(`[mail] ${l}\n`);
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("DATABASE_URL is not set");
  const catcher = await startMailCatcher({ databaseUrl, port: Number(process.env.MAIL_CATCHER_PORT ?? 2525), log });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 5_000).unref();
    void catcher.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  exitWithLauncher(stop, log);
  announceReady({ url: catcher.url });
}

main().catch((e: unknown) => {
  process.stderr.write(`[mail] failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
