/** DATABASE_URL for the seed and ingest CLIs: the environment first, then `.env.local` (written by the launcher). */
import path from "node:path";
import { readEnvFile } from "../../server/env-file";
import { embeddedPostgresUrl, repoRoot } from "../../server/paths";

function configuredDatabaseUrl(): string | undefined {
  return process.env.DATABASE_URL ?? readEnvFile(path.join(repoRoot, ".env.local")).DATABASE_URL;
}

export function databaseUrlFromEnv(): string {
  const url = configuredDatabaseUrl();
  if (!url) {
    throw new Error("DATABASE_URL is not set (export it, or start the stack once with `npm run stack` to write .env.local)");
  }
  return url;
}

/**
 * The database the seed CLI writes to: DATABASE_URL when it names another server; otherwise the embedded cluster
 * `npm start` uses (`.data`), started and migrated here when it is not running, so `npm run seed -- --size N` works
 * before the first `npm start` (which then finds the corpus and only builds the index). `stop` stops only a cluster
 * this call started.
 */
export async function seedDatabase(log: (line: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = configuredDatabaseUrl();
  if (url && url !== embeddedPostgresUrl()) return { url, stop: async () => undefined };
  // Loaded only here: the ingest CLI and db-types share this module and never start a cluster.
  const { startDatabase } = await import("../../server/stack");
  const db = await startDatabase({ log });
  return { url: db.databaseUrl, stop: () => db.stop() };
}
