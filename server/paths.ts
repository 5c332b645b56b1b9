import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Repository root: the nearest folder above the working directory holding our package.json and supabase/. */
function findRepoRoot(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "supabase", "migrations"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(start);
    dir = parent;
  }
}
export const repoRoot = findRepoRoot(process.cwd());

/** True when every ancestor of `dir` lets "other" users traverse it (o+x). */
function traversableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const st = statSync(current);
      if ((st.mode & 0o001) === 0) return false;
    } catch {
      // A missing folder is created later by us; judge its parent.
    }
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

export interface DataDirs {
  /** `.data` (or the override) holding search index, logs and state. */
  dataDir: string;
  /** Where the embedded Postgres cluster lives. */
  postgresDir: string;
  /** Set when the Postgres folder had to move out of the checkout. */
  note?: string;
}

/**
 * Embedded Postgres runs as the unprivileged `postgres` user when we are root, so its data folder must be
 * traversable by that user. A checkout under /root is not: fall back to a stable folder under the OS temp dir.
 */
export function resolveDataDirs(dataDir = path.join(repoRoot, ".data")): DataDirs {
  const postgresDir = path.join(dataDir, "postgres");
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || traversableByOthers(dataDir)) return { dataDir, postgresDir };
  const key = createHash("sha1").update(path.resolve(dataDir)).digest("hex").slice(0, 10);
  const fallback = path.join(tmpdir(), `judgment-search-${key}`, "postgres");
  return {
    dataDir,
    postgresDir: fallback,
    note: `${dataDir} is not traversable by the postgres user (running as root); Postgres data lives in ${fallback}`,
  };
}

/** The embedded cluster's port: POSTGRES_PORT, else 54322 (the launcher, the stack and the seed CLI agree on it). */
export function embeddedPostgresPort(): number {
  return Number(process.env.POSTGRES_PORT ?? 54322);
}

/** The embedded cluster's superuser (./postgres creates it; a local development database, not a secret). */
export const EMBEDDED_POSTGRES_USER = "postgres";
export const EMBEDDED_POSTGRES_PASSWORD = "postgres";

/**
 * The connection URL of the embedded cluster on `port`. Here, not in ./postgres, so the CLIs can name it without
 * loading embedded-postgres, whose exit hook would reset their exit code.
 */
export function embeddedPostgresUrl(port = embeddedPostgresPort()): string {
  return `postgres://${EMBEDDED_POSTGRES_USER}:${EMBEDDED_POSTGRES_PASSWORD}@127.0.0.1:${port}/postgres`;
}
