import { mkdirSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "./postgres";
import { migrate } from "../migrate";
import { embeddedPostgresPort, resolveDataDirs } from "../paths";

export interface StackOptions {
  /** Folder for all local state (default `.data`). */
  dataDir?: string;
  /** Port of the embedded Postgres (ignored when databaseUrl is given). */
  postgresPort?: number;
  /** Use this server instead of the embedded one. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface DatabaseHandle {
  databaseUrl: string;
  dataDir: string;
  /** The embedded cluster's folder when this call started it (not when it reused a running one or used DATABASE_URL). */
  startedPostgresDir: string | null;
  stop(): Promise<void>;
}

/** Start (or reuse) Postgres and apply pending migrations. */
export async function startDatabase(opts: StackOptions = {}): Promise<DatabaseHandle> {
  const log = opts.log ?? (() => undefined);
  const dirs = resolveDataDirs(opts.dataDir ? path.resolve(opts.dataDir) : undefined);
  mkdirSync(dirs.dataDir, { recursive: true });
  let pgHandle: EmbeddedPostgresHandle | null = null;
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl) {
    if (dirs.note) log(dirs.note);
    pgHandle = await startEmbeddedPostgres({ dir: dirs.postgresDir, port: opts.postgresPort ?? embeddedPostgresPort(), log });
    databaseUrl = pgHandle.url;
  }
  const { applied } = await migrate(databaseUrl, log);
  if (applied.length) log(`applied ${applied.length} migration(s)`);
  return {
    databaseUrl,
    dataDir: dirs.dataDir,
    startedPostgresDir: pgHandle?.startedHere ? dirs.postgresDir : null,
    stop: async () => {
      await pgHandle?.stop();
    },
  };
}
