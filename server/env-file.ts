import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "dotenv";
import { EMBEDDED_POSTGRES_PASSWORD, EMBEDDED_POSTGRES_USER, embeddedPostgresPort, embeddedPostgresUrl, repoRoot } from "./paths";

/** Read KEY=VALUE pairs from a dotenv file (empty object when missing). */
export function readEnvFile(file: string): Record<string, string> {
  return existsSync(file) ? parse(readFileSync(file, "utf8")) : {};
}

/** Add the missing keys to the dotenv file, keeping whatever the developer already wrote. Returns the keys added. */
export function addMissingToEnvFile(file: string, values: Record<string, string | undefined>): string[] {
  const current = readEnvFile(file);
  const added = Object.entries(values).filter(([k, v]) => v !== undefined && current[k] === undefined);
  if (added.length === 0) return [];
  // Single quotes keep the value literal in dotenv (a JWK's JSON survives unescaped).
  const lines = added.map(([k, v]) => `${k}=${String(v).includes("'") ? JSON.stringify(v) : `'${v}'`}`);
  const prefix = existsSync(file) ? readFileSync(file, "utf8").replace(/\n*$/, "\n") : "# Written by the local stack launcher (gitignored). Edit freely; values you set are kept.\n";
  writeFileSync(file, prefix + lines.join("\n") + "\n", { mode: 0o600 });
  return added.map(([k]) => k);
}

/**
 * The launcher's settings file: `.env.local` at the repository root, or STACK_ENV_FILE (a second checkout, or a test
 * that must not touch the developer's file). The launcher, the worker and the CLIs all read this one.
 */
export function localEnvFile(): string {
  return process.env.STACK_ENV_FILE ? path.resolve(process.env.STACK_ENV_FILE) : path.join(repoRoot, ".env.local");
}

/** Remove `key` from the dotenv file when it holds exactly `value` (other lines untouched). Returns whether it did. */
export function removeFromEnvFile(file: string, key: string, value: string): boolean {
  if (readEnvFile(file)[key] !== value) return false;
  const kept = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => {
      const m = /^\s*(?:export\s+)?([\w.-]+)\s*=/.exec(line);
      return !(m && m[1] === key);
    });
  writeFileSync(file, kept.join("\n"), { mode: 0o600 });
  return true;
}

/** Whether `url` carries the embedded cluster's fixed credentials on this machine (whatever its port). */
function isEmbeddedCredentialsUrl(url: URL): boolean {
  return (
    /^postgres(ql)?:$/.test(url.protocol) &&
    ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
    decodeURIComponent(url.username) === EMBEDDED_POSTGRES_USER &&
    decodeURIComponent(url.password) === EMBEDDED_POSTGRES_PASSWORD
  );
}

export interface LocalDatabaseUrl {
  url: string;
  /** The embedded cluster on POSTGRES_PORT (the launcher starts it), not a server named by the developer. */
  embedded: boolean;
  /** Where the URL came from. */
  source: "environment" | "file" | "derived";
}

/**
 * DATABASE_URL as the launcher, the worker and the CLIs read it. The embedded cluster's URL is never stored: it is
 * derived from POSTGRES_PORT on every start, so a start on another port uses that port's cluster. DATABASE_URL in the
 * environment is used as given. One in the settings file names an external server, except a URL with the embedded
 * cluster's credentials on a loopback port other than POSTGRES_PORT: what older launchers saved, which would make
 * this checkout migrate and serve whichever cluster listens there (another checkout's, the credentials being the same
 * fixed ones) — refused, saying which line to delete.
 */
export function localDatabaseUrl(opts: { env?: Record<string, string | undefined>; file?: string; postgresPort?: number } = {}): LocalDatabaseUrl {
  const env = opts.env ?? process.env;
  const port = opts.postgresPort ?? Number(env.POSTGRES_PORT ?? embeddedPostgresPort());
  const embeddedUrl = embeddedPostgresUrl(port);
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: env.DATABASE_URL === embeddedUrl, source: "environment" };
  const file = opts.file ?? localEnvFile();
  const saved = readEnvFile(file).DATABASE_URL;
  if (!saved) return { url: embeddedUrl, embedded: true, source: "derived" };
  let parsed: URL | null = null;
  try {
    parsed = new URL(saved);
  } catch {
    // Not a URL: passed on, and the database client says what is wrong with it.
  }
  if (parsed && isEmbeddedCredentialsUrl(parsed)) {
    const savedPort = Number(parsed.port || 5432);
    if (savedPort === port) return { url: embeddedUrl, embedded: true, source: "derived" };
    throw new Error(
      `${path.basename(file)} has DATABASE_URL with the embedded cluster's credentials on port ${savedPort}, but POSTGRES_PORT is ${port}: ` +
        `that is another cluster (perhaps another checkout's). Delete the DATABASE_URL line from ${file} (the local URL is derived from ` +
        `POSTGRES_PORT on every start), or set POSTGRES_PORT=${savedPort} to use that cluster.`,
    );
  }
  return { url: saved, embedded: false, source: "file" };
}
