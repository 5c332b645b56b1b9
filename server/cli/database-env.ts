/**
 * DATABASE_URL for the seed, ingest and db:types CLIs, read as the launcher reads it (server/env-file.ts
 * localDatabaseUrl): the environment, then `.env.local`, else the embedded cluster on POSTGRES_PORT.
 */
import { localDatabaseUrl } from "../env-file";

export function databaseUrlFromEnv(): string {
  return localDatabaseUrl().url;
}

/**
 * The database the seed CLI writes to: DATABASE_URL when it names another server; otherwise the embedded cluster
 * `npm start` uses (`.data`), started and migrated here when it is not running, so `npm run seed -- --size N` works
 * before the first `npm start` (which then finds the corpus and only builds the index). `stop` stops only a cluster
 * this call started.
 */
export async function seedDatabase(log: (line: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const { url, embedded } = localDatabaseUrl();
  if (!embedded) return { url, stop: async () => undefined };
  // Loaded only here: the ingest CLI and db-types share this module and never start a cluster.
  const { startDatabase } = await import("../launcher/stack");
  const db = await startDatabase({ log });
  return { url: db.databaseUrl, stop: () => db.stop() };
}
