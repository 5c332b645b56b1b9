/**
 * Run the app behind our stamping HTTP server (see app-server.ts) — what `next start` / `next dev` would do, plus the
 * trusted client address (D-22):
 *
 *   tsx server/app-server-cli.ts --mode production --port 3000 [--host 127.0.0.1]
 *
 * TRUSTED_PROXY=1 in the environment believes X-Forwarded-For from a proxy in front.
 *
 * With SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY set, the server also keeps the app_events partitions created ahead
 * (at start, then daily): `npm start` against a project without pg_cron used to run no partition job at all
 * (issue 12, M7); the job is idempotent, so several servers (or the launcher's own scheduler) running it is harmless.
 * SIGTERM/SIGINT flush the queued analytics rows first.
 */
import { parseArgs } from "node:util";
import { createClient } from "@supabase/supabase-js";
import { startScheduler } from "../lib/backend/scheduler";
import { config } from "../lib/config";
import { realtimeOptions, serverAuthOptions } from "../lib/supabase/options";
import { startAppServer } from "./app-server";
import { exitWithLauncher } from "./supervise";

function startPartitionJob(): () => void {
  // Read after Next loaded the .env files.
  const { SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: key } = config();
  if (!url || !key) return () => undefined;
  return startScheduler({ serviceDb: createClient(url, key, { auth: serverAuthOptions, realtime: realtimeOptions }) });
}

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "production" },
    port: { type: "string", default: "3000" },
    host: { type: "string", default: "127.0.0.1" },
    dir: { type: "string", default: process.cwd() },
  },
});

const trusted = process.env.TRUSTED_PROXY === "1" || process.env.TRUSTED_PROXY === "true";

startAppServer({ dir: values.dir as string, dev: values.mode === "development", port: Number(values.port), hostname: values.host, trustedProxy: trusted })
  .then((server) => {
    process.stdout.write(`app listening on ${server.url}${trusted ? " (trusting X-Forwarded-For)" : ""}\n`);
    const stopJobs = startPartitionJob();
    const stop = () => {
      stopJobs();
      void server.close().finally(() => process.exit(0));
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    // Started by the launcher: never outlive it (a killed launcher used to leave the app serving).
    exitWithLauncher(stop, (l) => process.stdout.write(`[app] ${l}\n`));
  })
  .catch((e: unknown) => {
    process.stderr.write(`app server failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
