/**
 * Run the app behind our stamping HTTP server (see app-server.ts) — what `next start` / `next dev` would do, plus the
 * trusted client address (D-22):
 *
 *   tsx server/app/app-server-cli.ts --mode production --port 3000 [--host 127.0.0.1]
 *
 * TRUSTED_PROXY=1 in the environment believes X-Forwarded-For from a proxy in front.
 *
 * The app server runs no background job: the worker process does (server/worker/worker.ts, pg-boss cron schedules, among
 * them the app_events partitions). SIGTERM/SIGINT flush the queued analytics rows first.
 */
import { parseArgs } from "node:util";
import { startAppServer } from "./app-server";
import { exitWithLauncher } from "../supervise";

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
    const stop = () => {
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
