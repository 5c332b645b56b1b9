/**
 * The import command behind `npm run import` (server/cli/import.ts) and its alias `npm run ingest`
 * (server/cli/ingest.ts): arguments, progress bar on a terminal, the JSON summary line, the closing search
 * sync. Usage and flags: docs/ingestion.md.
 */
import cliProgress from "cli-progress";
import pg from "pg";
import { databaseUrlFromEnv } from "@/server/cli/database-env";
import { exitCodeOf } from "../../lib/import/run";
import { runRecordedImport } from "../../lib/import/runs";
import { IMPORT_SOURCES, type ImportSource, type ImportSummary } from "../../lib/import/types";

const USAGE = `usage: npm run import -- <${IMPORT_SOURCES.join("|")}> <file|dir|glob>... [--dry-run] [--limit N] [--no-sync] [--batch N]
  saos     SAOS JSON: GET /api/judgments/{id} responses, search or dump pages (items[]), items as JSON Lines
  fcl      Find Case Law LegalDocML / Akoma Ntoso XML; Atom feed pages list their entries (not imported)
  juddges  JuDDGES rows (pl-court-raw, en-court-raw, en-appealcourt) as parquet, JSON or JSON Lines
  jsonl    our JSONL shape (same as npm run ingest)
docs/ingestion.md describes formats, licences, flags and exit codes.`;

export interface CliArgs {
  source: ImportSource;
  inputs: string[];
  dryRun: boolean;
  limit: number | null;
  sync: boolean;
  batchSize: number;
}

export function parseArgs(argv: readonly string[]): CliArgs | { error: string } | { help: true } {
  const args = argv.filter((a) => a !== "--");
  if (!args.length || args.includes("--help") || args.includes("-h")) return args.length ? { help: true } : { error: "no source given" };
  const [source, ...rest] = args;
  if (!(IMPORT_SOURCES as readonly string[]).includes(source)) return { error: `unknown source "${source}" (one of ${IMPORT_SOURCES.join(", ")})` };
  const out: CliArgs = { source: source as ImportSource, inputs: [], dryRun: false, limit: null, sync: true, batchSize: 200 };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : rest[++i];
      const n = Number(v);
      return Number.isInteger(n) && n > 0 ? n : null;
    };
    if (a === "--dry-run") out.dryRun = true;
    else if (a === "--no-sync") out.sync = false;
    else if (a === "--limit" || a.startsWith("--limit=")) {
      const n = value();
      if (n === null) return { error: "--limit needs a positive integer" };
      out.limit = n;
    } else if (a === "--batch" || a.startsWith("--batch=")) {
      const n = value();
      if (n === null || n > 5_000) return { error: "--batch needs an integer from 1 to 5000" };
      out.batchSize = n;
    } else if (a.startsWith("--")) return { error: `unknown flag ${a}` };
    else out.inputs.push(a);
  }
  if (!out.inputs.length) return { error: "no file, directory or glob given" };
  return out;
}

/** The closing incremental search sync (also timed by bench/import --app-url). */
export async function syncIndex(url: string): Promise<ImportSummary["sync"]> {
  const started = Date.now();
  // Loaded only when syncing: a dry run or --no-sync never opens the search index.
  const { getSearch } = await import("@/lib/search/engine");
  const { incrementalSync } = await import("@/lib/search/sync");
  const { engine, embedder } = getSearch();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const r = await incrementalSync(pool, { engine, embedder });
    return { kind: r.kind, documents: r.documents, ms: Date.now() - started };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  } finally {
    await pool.end();
    await engine.close();
  }
}

/**
 * The import command: parse `argv` (after the script name), run, print the summary line; answers the exit code.
 * `legacy` also prints the report lines `npm run ingest` printed before it became an alias of `import jsonl`.
 */
export async function runCli(argv: readonly string[], opts: { legacy?: boolean } = {}): Promise<number> {
  const parsed = parseArgs(argv);
  if ("help" in parsed) {
    console.log(USAGE);
    return 0;
  }
  if ("error" in parsed) {
    console.error(`import: ${parsed.error}\n${USAGE}`);
    return 1;
  }
  const url = parsed.dryRun ? undefined : databaseUrlFromEnv();
  const tty = process.stderr.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar({ format: `importing ${parsed.source} [{bar}] {percentage}% | {read} records | {file}`, hideCursor: true, stream: process.stderr }, cliProgress.Presets.shades_classic)
    : null;
  bar?.start(1, 0, { read: 0, file: "" });
  // Recorded in public.import_runs (shown on /admin/imports), the closing sync included.
  const summary = await runRecordedImport({
    source: parsed.source,
    inputs: parsed.inputs,
    databaseUrl: url,
    dryRun: parsed.dryRun,
    limit: parsed.limit,
    batchSize: parsed.batchSize,
    onProgress: (p) => {
      bar?.setTotal(Math.max(1, p.totalBytes));
      bar?.update(p.bytes, { read: p.read, file: p.file.length > 40 ? `…${p.file.slice(-39)}` : p.file });
    },
  }, {
    origin: "cli",
    after: async (s) => {
      bar?.stop();
      if (s.notice) console.error(`note: ${s.notice}`);
      if (url && parsed.sync && s.inserted + s.updated > 0) s.sync = await syncIndex(url);
      else s.sync = "skipped";
    },
  }).finally(() => bar?.stop());
  if (opts.legacy) {
    console.log(`inserted ${summary.inserted}, updated ${summary.updated}, rejected ${summary.rejected} (${summary.read} records, ${(summary.ms / 1000).toFixed(1)} s)`);
    for (const r of summary.rejections) console.log(`  ${r.line !== undefined ? `line ${r.line}` : `record ${r.record ?? "-"}`}: ${r.reason}`);
  }
  console.log(JSON.stringify(summary));
  return exitCodeOf(summary);
}
