/**
 * Run the app behind our stamping HTTP server (see app-server.ts) — what `next start` / `next dev` would do, plus the
 * trusted client address (D-22):
 *
 *   tsx lib/api/app-server-cli.ts --mode production --port 3000 [--host 127.0.0.1]
 *
 * TRUSTED_PROXY=1 in the environment believes X-Forwarded-For from a proxy in front.
 */
import { parseArgs } from "node:util";
import { startAppServer } from "./app-server";

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
    const stop = () => void server.close().finally(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  })
  .catch((e: unknown) => {
    process.stderr.write(`app server failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
