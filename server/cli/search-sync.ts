/**
 * `npm run search:sync [-- --full]`: sync the search index from Postgres with a progress bar. Incremental by
 * default (a full rebuild when the index has never been synced); `--full` rebuilds. Reads DATABASE_URL from the
 * environment or `.env.local` (written by the launcher). Needs the database running (`npm run stack`).
 */
import cliProgress from "cli-progress";
import { localDatabaseUrl, localEnvFile, readEnvFile } from "../env-file";
import pg from "pg";
import { getSearch } from "../../lib/search/engine";
import { fullSync, incrementalSync, type SyncProgress } from "../../lib/search/sync";

/** The launcher's settings file fills what the environment lacks; the database URL is resolved as the launcher does. */
function loadEnv(): void {
  process.env.DATABASE_URL = localDatabaseUrl().url;
  for (const [k, v] of Object.entries(readEnvFile(localEnvFile()))) {
    if (process.env[k] === undefined) process.env[k] = v;
  }
}

async function main(): Promise<void> {
  loadEnv();
  const full = process.argv.includes("--full");
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (start the stack once with `npm run stack`)");
  const { engine, embedder } = getSearch();
  console.log(`search sync (${full ? "full" : "incremental"}) → ${engine.name}, embedder: ${embedder.label}`);
  const bar = new cliProgress.SingleBar(
    { format: "{phase} [{bar}] {value}/{total} judgments | {eta_formatted} left" },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const onProgress = (p: SyncProgress) => {
    if (!started) {
      bar.start(p.total, p.done, { phase: p.phase });
      started = true;
    } else bar.update(p.done, { phase: p.phase });
  };
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const r = await (full ? fullSync : incrementalSync)(pool, { engine, embedder, onProgress });
    if (started) bar.stop();
    console.log(
      `${r.kind} sync done in ${(r.durationMs / 1000).toFixed(1)} s: ${r.documents} documents, ${r.chunks} chunks, ${r.deleted} deleted`,
    );
    // A full sync also refreshes the dashboard statistics, as the scheduled one does.
    if (r.kind === "full") await pool.query("select public.refresh_dashboard_stats()");
  } finally {
    if (started) bar.stop();
    await pool.end();
    await engine.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
