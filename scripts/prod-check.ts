/**
 * `npm run prod:check`: the production topology of docs/deploy.md started on this machine, without the launcher and
 * without containers, a smoke run through the proxy, then everything stopped — and a plain account of all three.
 *
 *   database   a scratch database on the system PostgreSQL (PROD_CHECK_ADMIN_URL, default
 *              postgres://postgres@127.0.0.1:5432/postgres), named to the app only by DATABASE_URL; a second embedded
 *              cluster where no such server answers. Migrated by `npm run db:migrate`, the deploy's migration step.
 *   data       `npm run seed -- --size $SEED_SIZE` (default 200) and `npm run search:sync -- --full`
 *   mail       the SMTP catcher (server/launcher/mail-catcher-cli.ts) as the SMTP server of the app, the worker and
 *              the Auth server
 *   gateway    the Auth/RPC gateway (server/launcher/gateway-cli.ts) with AUTH_AUTOCONFIRM off: sign-ups confirm by mail
 *   Redis      127.0.0.1:6379, database 15 (PROD_CHECK_REDIS_URL), for the limits and the guest meter
 *   worker     `npm run worker` (pg-boss: extraction jobs and every schedule)
 *   app        `next start` on a production build (one that is current is reused: .next, else the test suite's
 *              .next-test; otherwise `next build` into .next), TRUSTED_PROXY=1, APP_URL the proxy's address
 *   proxy      Debian's nginx running deploy/nginx.conf (installed with apt as root when missing, as .ci/run does),
 *              static files precompressed by `npm run precompress`
 *
 * Every process runs in a process group of its own and is stopped with it; the database is dropped, even when a step
 * fails or the check is interrupted (Ctrl-C). Exit 0 when everything started, every smoke step passed and nothing is
 * left; 1 otherwise.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Redis from "ioredis";
import pg from "pg";
import { buildIsCurrent, recordBuild, sourceFingerprint } from "../server/launcher/next-build";
import { repoRoot } from "../server/paths";
import { generateLocalKeys } from "../supabase/local/keys";
import { createScratchDatabase, DEFAULT_ADMIN_URL, type ScratchDatabase } from "./prod-check/database";
import { nginxBinary, nginxConfig } from "./prod-check/nginx-site";
import type { GuardState } from "./prod-check/guard";
import { freePort, freePorts, listening, runCommand, startService, stopService, refuseNewServices, tail, waitFor, watchGroups, type Service, type StopReport } from "./prod-check/services";
import { smokeSteps } from "./prod-check/smoke";

const t0 = Date.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const say = (l: string) => console.log(`[prod:check] ${l}`);

interface Line {
  what: string;
  detail: string;
  ms?: number;
}
interface StepResult {
  name: string;
  status: "ok" | "failed" | "not run";
  ms: number;
  detail: string;
}

const startedLines: Line[] = [];
const stoppedLines: string[] = [];
const stepResults: StepResult[] = [];
const services: Service[] = [];
let database: ScratchDatabase | null = null;
let failure: string | null = null;
/** The Redis database and key prefix this run wrote limits under, cleared at the end. */
let redisCleanup: [string, string] | null = null;

/** Time one phase of the start and record it for the summary. */
async function phase<T>(what: string, fn: () => Promise<{ value: T; detail: string }>): Promise<T> {
  say(`${what}…`);
  const started = Date.now();
  const { value, detail } = await fn();
  startedLines.push({ what, detail, ms: Date.now() - started });
  say(`${what}: ${detail} (${secs(Date.now() - started)})`);
  return value;
}

/** node with tsx's loader on one of our entries: one process (not tsx's wrapper and a second node). */
function tsNode(entry: string): { command: string; args: string[] } {
  const loader = pathToFileURL(path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;
  return { command: process.execPath, args: ["--import", loader, entry] };
}

function npmRun(script: string, ...args: string[]): { command: string; args: string[] } {
  return { command: "npm", args: ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])] };
}

/** Install a Debian package with apt when this runs as root (as .ci/run does for nginx); false where it cannot. */
function aptInstall(pkg: string): boolean {
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!root || !apt) return false;
  say(`installing Debian's ${pkg} (apt-get)…`);
  const r = spawnSync("sh", ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg} >/dev/null`], { stdio: "inherit" });
  return r.status === 0;
}

/** nginx from Debian: present, or installed (nginx-light) when this runs as root with apt. */
function ensureNginx(): string {
  const found = nginxBinary();
  if (found) return found;
  if (!aptInstall("nginx-light")) throw new Error("nginx is not installed (/usr/sbin/nginx): `sudo apt-get install nginx-light`, then run again");
  const installed = nginxBinary();
  if (!installed) throw new Error("apt-get installed nginx-light but no nginx binary was found");
  return installed;
}

/** The production build to serve: a current one (ours, else the test suite's), or a new `next build` into .next. */
async function productionBuild(env: NodeJS.ProcessEnv, runDir: string): Promise<{ value: string; detail: string }> {
  const candidates = [...new Set([process.env.NEXT_DIST_DIR, ".next", ".next-test"].filter((d): d is string => Boolean(d)))];
  const current = candidates.find((d) => buildIsCurrent(d));
  if (current) return { value: current, detail: `${current} is current for these sources: reused (no next build)` };
  const fingerprint = sourceFingerprint();
  say(`no current production build: next build into .next (minutes; its output goes to ${path.join(runDir, "cmd-next-build.log")})`);
  const built = await runCommand({ name: "next-build", command: process.execPath, args: [path.join(repoRoot, "node_modules/next/dist/bin/next"), "build"], env: { ...env, NEXT_DIST_DIR: ".next" }, cwd: repoRoot, logDir: runDir });
  if (built.code !== 0) throw new Error(`next build failed (exit ${built.code}):\n${built.tail}`);
  recordBuild(".next", fingerprint);
  return { value: ".next", detail: "no current build: next build into .next" };
}

async function pingRedis(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    const pong = await redis.ping();
    const version = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1] ?? "?";
    return `${pong} from Redis ${version}`;
  } finally {
    redis.disconnect();
  }
}

const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/sbin/redis-server", "/usr/local/bin/redis-server"];

/**
 * Redis at PROD_CHECK_REDIS_URL (default 127.0.0.1:6379, database 15: a database of its own, keys under this run's
 * prefix). Where nothing answers at the default address (or with PROD_CHECK_REDIS_URL=own), a redis-server of this
 * run's own (Debian's redis-server, installed as root when missing) on a free port, stopped with the rest.
 */
async function ensureRedis(runDir: string): Promise<{ value: string; detail: string }> {
  const given = process.env.PROD_CHECK_REDIS_URL;
  if (given !== "own") {
    const url = given ?? "redis://127.0.0.1:6379/15";
    try {
      return { value: url, detail: `${await pingRedis(url)} at ${url}` };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (given) throw new Error(`no Redis at PROD_CHECK_REDIS_URL ${url} (${why})`);
      say(`no Redis at ${url} (${why}): starting one for this run`);
    }
  }
  let bin = REDIS_SERVER.find((p) => existsSync(p));
  if (!bin && aptInstall("redis-server")) bin = REDIS_SERVER.find((p) => existsSync(p));
  if (!bin) throw new Error("no Redis answers at 127.0.0.1:6379 and redis-server is not installed: `sudo apt-get install redis-server`");
  const port = await freePort();
  const dir = path.join(runDir, "redis");
  mkdirSync(dir, { recursive: true });
  const s = startService({ name: "redis", command: bin, args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], env: process.env, cwd: dir, logDir: runDir });
  services.push(s);
  const own = `redis://127.0.0.1:${port}/15`;
  await waitFor(s, "PONG", async () => Boolean(await pingRedis(own)), 30_000);
  return { value: own, detail: `${await pingRedis(own)}: redis-server of this run at ${own} (pid ${s.pid})` };
}

/** Delete this run's rate-limit counters (its own key prefix) from the Redis database it used. */
async function clearRedisKeys(url: string, prefix: string): Promise<string> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 3_000 });
  try {
    let cursor = "0";
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== "0");
    return `Redis: ${deleted} key(s) under ${prefix}* deleted`;
  } finally {
    redis.disconnect();
  }
}

/** Stop every service (newest first), drop the database, delete the run folder; each line says what happened. */
async function stopEverything(runDir: string, keepLogs: boolean): Promise<boolean> {
  let clean = true;
  if (redisCleanup) {
    const [url, prefix] = redisCleanup;
    await clearRedisKeys(url, prefix).then(
      (l) => stoppedLines.push(l),
      (e: unknown) => stoppedLines.push(`Redis keys not cleared: ${e instanceof Error ? e.message : String(e)}`),
    );
  }
  const order = [...services].reverse();
  for (const s of order) {
    // nginx stops gracefully on SIGQUIT; the worker lets documents under way finish (up to 40 s of its own).
    const r: StopReport = await stopService(s, { signal: s.name === "nginx" ? "SIGQUIT" : "SIGTERM", graceMs: s.name === "worker" ? 45_000 : 20_000 });
    stoppedLines.push(`${r.name.padEnd(12)} pid ${r.pid}: ${r.how}${r.gone ? ", no process of its group left" : ", PROCESSES OF ITS GROUP ARE STILL RUNNING"}`);
    clean &&= r.gone;
  }
  services.length = 0;
  if (database) {
    try {
      const said = await database.drop();
      stoppedLines.push(said);
      clean &&= !said.includes("STILL");
    } catch (e) {
      stoppedLines.push(`database NOT dropped: ${e instanceof Error ? e.message : String(e)}`);
      clean = false;
    }
    database = null;
  }
  if (keepLogs) stoppedLines.push(`logs kept in ${runDir}`);
  else {
    rmSync(runDir, { recursive: true, force: true });
    stoppedLines.push(`run folder ${runDir} deleted (search index, nginx config and logs)`);
  }
  return clean;
}

function printSummary(totalMs: number, clean: boolean): void {
  const out: string[] = ["", "prod:check — the production topology of docs/deploy.md on this machine", "", "started:"];
  for (const l of startedLines) out.push(`  ${l.what.padEnd(12)} ${l.detail}${l.ms !== undefined ? ` (${secs(l.ms)})` : ""}`);
  out.push("", "smoke run through the proxy:");
  for (const r of stepResults) out.push(`  ${r.status.padEnd(7)} ${r.name.padEnd(38)} ${r.status === "not run" ? "" : secs(r.ms).padStart(7)}  ${r.detail}`);
  if (stepResults.length === 0) out.push("  (not reached)");
  out.push("", "stopped:");
  for (const l of stoppedLines) out.push(`  ${l}`);
  out.push("");
  if (failure) out.push(`FAILED: ${failure}`);
  const passed = !failure && clean && stepResults.length > 0 && stepResults.every((r) => r.status === "ok");
  out.push(`prod:check ${passed ? "passed" : "FAILED"} in ${secs(totalMs)}${clean ? "; nothing left running" : "; SOMETHING WAS LEFT BEHIND (see stopped)"}`);
  console.log(out.join("\n"));
}

/** The scratch database, migrated by the deploy's command and loaded with (a slice of) the demo corpus. */
async function prepareDatabase(base: NodeJS.ProcessEnv, runDir: string, seedSize: string): Promise<string> {
  const adminUrl = process.env.PROD_CHECK_ADMIN_URL ?? DEFAULT_ADMIN_URL;
  database = await phase("database", async () => {
    const db = await createScratchDatabase({ adminUrl, name: `prodcheck_${process.pid}`, runDir, log: say });
    if (guardState && db.guard) {
      guardState.database = db.guard;
      saveGuardState();
    }
    return { value: db, detail: db.describe };
  });
  const withDb: NodeJS.ProcessEnv = { ...base, DATABASE_URL: database.url };
  await phase("migrations", async () => {
    const r = await runCommand({ name: "db-migrate", ...npmRun("db:migrate"), env: withDb, cwd: repoRoot, logDir: runDir });
    if (r.code !== 0) throw new Error(`npm run db:migrate failed (exit ${r.code}):\n${r.tail}`);
    return { value: null, detail: `npm run db:migrate: ${r.tail.split("\n").pop() ?? ""}` };
  });
  await phase("data", async () => {
    const seeded = await runCommand({ name: "seed", ...npmRun("seed", "--size", seedSize), env: withDb, cwd: repoRoot, logDir: runDir });
    if (seeded.code !== 0) throw new Error(`npm run seed failed (exit ${seeded.code}):\n${seeded.tail}`);
    return { value: null, detail: `npm run seed -- --size ${seedSize}: ${seeded.tail.split("\n").find((l) => l.startsWith("seeded")) ?? "seeded"}` };
  });
  return database.url;
}

async function run(runDir: string): Promise<void> {
  const seedSize = process.env.SEED_SIZE ?? "200";
  const keyPrefix = `prodcheck-${process.pid}`;

  await phase("nginx", async () => {
    const bin = ensureNginx();
    const v = spawnSync(bin, ["-v"], { encoding: "utf8" });
    return { value: bin, detail: `${(v.stderr || v.stdout).trim()} (${bin})` };
  });
  const redisUrl = await phase("Redis", () => ensureRedis(runDir));
  redisCleanup = [redisUrl, keyPrefix];

  // Ports: free ones, so the check runs beside a developer's `npm start` and other checks.
  const [mailPort, gatewayPort, appPort, proxyPort] = await freePorts(4);
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const searchDir = path.join(runDir, "search");
  const emptyEnvFile = path.join(runDir, "empty.env");
  writeFileSync(emptyEnvFile, "");
  // The deployment's settings, passed to each process in its environment (docs/deploy.md, the managed table): nothing
  // from a developer's .env.local reaches the processes we start through our own loader (STACK_ENV_FILE).
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", STACK_ENV_FILE: emptyEnvFile, LAUNCHER_PID: String(process.pid) };
  delete base.DATABASE_URL;

  // Independent work overlaps (2 shared cores): the static files are compressed while the database is prepared, and
  // the four services start together with the search index build once the corpus is in.
  const distDir = await phase("build", () => productionBuild(base, runDir));
  const precompressed = phase("precompress", async () => {
    const r = await runCommand({ name: "precompress", ...npmRun("precompress"), env: { ...base, NEXT_DIST_DIR: distDir }, cwd: repoRoot, logDir: runDir });
    if (r.code !== 0) throw new Error(`npm run precompress failed (exit ${r.code}):\n${r.tail}`);
    return { value: null, detail: `npm run precompress: ${r.tail.split("\n").pop() ?? ""}` };
  });
  // Awaited on every path, so no command of this phase outlives the check.
  const databaseReady = prepareDatabase(base, runDir, seedSize);
  const [pre, db] = await Promise.allSettled([precompressed, databaseReady]);
  if (pre.status === "rejected") throw pre.reason;
  if (db.status === "rejected") throw db.reason;
  const databaseUrl = db.value;
  const withDb: NodeJS.ProcessEnv = { ...base, DATABASE_URL: databaseUrl };

  const keys = await generateLocalKeys(gatewayUrl);
  const smtpUrl = `smtp://127.0.0.1:${mailPort}`;
  const gatewayEnv: NodeJS.ProcessEnv = {
    ...withDb,
    GATEWAY_PORT: String(gatewayPort),
    SUPABASE_JWT_PRIVATE_JWK: JSON.stringify(keys.privateJwk),
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
    UPSTASH_REDIS_REST_TOKEN: keys.upstashToken,
    REDIS_URL: redisUrl,
    GATEWAY_SMTP_URL: smtpUrl,
    AUTH_AUTOCONFIRM: "false",
  };
  // The app's and the worker's settings: what a deployment sets (docs/deploy.md).
  const appEnv: NodeJS.ProcessEnv = {
    ...withDb,
    SUPABASE_URL: gatewayUrl,
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
    LIMITS_REDIS_URL: redisUrl,
    LIMITS_KEY_PREFIX: keyPrefix,
    SMTP_URL: smtpUrl,
    APP_URL: proxyUrl,
    TRUSTED_PROXY: "1",
    STATIC_ASSETS: "next",
    SEARCH_DATA_DIR: searchDir,
    NEXT_DIST_DIR: distDir,
  };

  const starting = [
    // The index is built while the services start: the app and the worker read the index folder's newest generation
    // (state.json) whenever it changes, as they do after each scheduled sync.
    phase("index", async () => {
      const r = await runCommand({ name: "search-sync", ...npmRun("search:sync", "--full"), env: { ...withDb, SEARCH_DATA_DIR: searchDir }, cwd: repoRoot, logDir: runDir });
      if (r.code !== 0) throw new Error(`npm run search:sync failed (exit ${r.code}):\n${r.tail}`);
      return { value: null, detail: `npm run search:sync -- --full: ${r.tail.split("\n").pop() ?? ""}` };
    }),
    phase("mail", async () => {
      const s = startService({ name: "mail catcher", ...tsNode("server/launcher/mail-catcher-cli.ts"), env: { ...withDb, MAIL_CATCHER_PORT: String(mailPort) }, cwd: repoRoot, logDir: runDir });
      services.push(s);
      await waitFor(s, "SMTP listener", () => listening(mailPort), 60_000);
      return { value: null, detail: `SMTP catcher ${smtpUrl} (pid ${s.pid}; stores each message in public.mail_messages)` };
    }),
    phase("gateway", async () => {
      const s = startService({ name: "gateway", ...tsNode("server/launcher/gateway-cli.ts"), env: gatewayEnv, cwd: repoRoot, logDir: runDir });
      services.push(s);
      await waitFor(s, "answer on /auth/v1/settings", async () => (await fetch(`${gatewayUrl}/auth/v1/settings`, { headers: { apikey: keys.anonKey } })).status === 200, 90_000);
      return { value: null, detail: `Auth/RPC gateway ${gatewayUrl} (pid ${s.pid}; AUTH_AUTOCONFIRM off, confirmation mail to the catcher)` };
    }),
    phase("worker", async () => {
      const s = startService({ name: "worker", ...npmRun("worker"), env: appEnv, cwd: repoRoot, logDir: runDir });
      services.push(s);
      await waitFor(s, "its schedules", async () => /\[worker\] working /.test(tail(s.log, 200)), 120_000);
      return { value: null, detail: `npm run worker (pid ${s.pid}; extraction jobs and every pg-boss schedule)` };
    }),
    phase("app", async () => {
      const s = startService({ name: "app", command: process.execPath, args: [path.join(repoRoot, "node_modules/next/dist/bin/next"), "start", "--port", String(appPort), "--hostname", "127.0.0.1"], env: appEnv, cwd: repoRoot, logDir: runDir });
      services.push(s);
      await waitFor(s, "answer on /api/health/status", async () => (await fetch(`http://127.0.0.1:${appPort}/api/health/status`)).status < 500, 120_000);
      return { value: null, detail: `next start on 127.0.0.1:${appPort} (pid ${s.pid}; ${distDir}, TRUSTED_PROXY=1, APP_URL ${proxyUrl})` };
    }),
  ];
  // Every start settles before a failure is raised: each service is then in `services` and is stopped with the rest.
  const failed = (await Promise.allSettled(starting)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;

  await phase("proxy", async () => {
    const dir = path.join(runDir, "nginx");
    mkdirSync(dir, { recursive: true });
    const conf = path.join(dir, "nginx.conf");
    writeFileSync(conf, nginxConfig(path.join(repoRoot, "deploy/nginx.conf"), { upstream: `127.0.0.1:${appPort}`, staticDir: path.join(repoRoot, distDir, "static"), port: proxyPort, dir }));
    const s = startService({ name: "nginx", command: nginxBinary() as string, args: ["-p", dir, "-c", conf], env: base, cwd: dir, logDir: runDir });
    services.push(s);
    await waitFor(s, "answer through the proxy", async () => (await fetch(`${proxyUrl}/api/health/status`)).status < 500, 30_000);
    return { value: null, detail: `nginx ${proxyUrl} (pid ${s.pid}; deploy/nginx.conf, static files from ${distDir}/static)` };
  });

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const steps = smokeSteps(
      {
        baseUrl: proxyUrl,
        databaseUrl,
        importJudgments: async (rows) => {
          const file = path.join(runDir, "new-judgments.jsonl");
          writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
          const r = await runCommand({ name: "import", ...npmRun("import", "jsonl", file), env: { ...appEnv }, cwd: repoRoot, logDir: runDir });
          if (r.code !== 0) throw new Error(`npm run import failed (exit ${r.code}):\n${r.tail}`);
          const summary = r.tail.split("\n").reverse().find((l) => l.startsWith("{"));
          const inserted = summary ? (JSON.parse(summary) as { inserted?: number }).inserted : undefined;
          return `npm run import -- jsonl: ${inserted ?? "?"} new judgment(s) inserted and synced`;
        },
      },
      pool,
    );
    say("smoke run through the proxy…");
    for (const step of steps) {
      if (failure) {
        stepResults.push({ name: step.name, status: "not run", ms: 0, detail: "(after a failure)" });
        continue;
      }
      const started = Date.now();
      try {
        const detail = await step.run();
        stepResults.push({ name: step.name, status: "ok", ms: Date.now() - started, detail });
        say(`ok ${step.name} (${secs(Date.now() - started)})`);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        stepResults.push({ name: step.name, status: "failed", ms: Date.now() - started, detail: msg.split("\n")[0] });
        failure = `smoke step "${step.name}": ${msg}`;
      }
    }
  } finally {
    await pool.end();
  }
  if (failure) {
    for (const s of services) console.log(`\n--- last lines of ${s.name} (${s.log}) ---\n${tail(s.log, 20)}`);
  }
}

/** State the guard reads should this process die; rewritten whenever a process group starts or ends. */
let guardState: GuardState | null = null;
let guardFile = "";
function saveGuardState(): void {
  if (guardState) writeFileSync(guardFile, JSON.stringify(guardState));
}

/** Start the guard (./prod-check/guard.ts): its own process group, so neither a Ctrl-C nor our death reaches it first. */
function startGuard(runDir: string): void {
  guardFile = path.join(runDir, "guard-state.json");
  guardState = { groups: [], runDir };
  saveGuardState();
  watchGroups((groups) => {
    if (guardState) guardState.groups = groups;
    saveGuardState();
  });
  const { command, args } = tsNode("scripts/prod-check/guard.ts");
  const guard = spawn(command, [...args, "--parent", String(process.pid), "--state", guardFile], { cwd: repoRoot, detached: true, stdio: "ignore" });
  guard.unref();
}

async function main(): Promise<void> {
  const runDir = mkdtempSync(path.join(tmpdir(), "prod-check-"));
  // Readable by the users some services drop to when started as root: nginx's workers (nobody), the stand-in
  // cluster's initdb (postgres).
  chmodSync(runDir, 0o755);
  startGuard(runDir);
  let finishing = false;
  const finish = async (signal?: string) => {
    if (finishing) return;
    finishing = true;
    if (signal) failure ??= `interrupted (${signal})`;
    refuseNewServices();
    const stopping = Date.now();
    const clean = await stopEverything(runDir, Boolean(failure) || process.env.PROD_CHECK_KEEP_LOGS === "1");
    stoppedLines.push(`(stopping took ${secs(Date.now() - stopping)})`);
    // Everything is stopped: the guard exits once its state file is gone.
    guardState = null;
    rmSync(guardFile, { force: true });
    printSummary(Date.now() - t0, clean);
    const passed = !failure && clean && stepResults.length > 0 && stepResults.every((r) => r.status === "ok");
    process.exit(passed ? 0 : 1);
  };
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(sig, () => void finish(sig));
  try {
    await run(runDir);
  } catch (e) {
    failure ??= e instanceof Error ? e.message : String(e);
    for (const s of services) if (existsSync(s.log)) console.log(`\n--- last lines of ${s.name} (${s.log}) ---\n${tail(s.log, 20)}`);
  }
  await finish();
}

void main();
