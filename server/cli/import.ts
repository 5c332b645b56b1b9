/**
 * npm run import -- <saos|fcl|juddges|jsonl> <file|dir|glob>… [--dry-run] [--limit N] [--no-sync] [--batch N]
 * Imports judgments from their source's own format (docs/ingestion.md) into DATABASE_URL (environment, else
 * `.env.local`), with a progress bar on a terminal and one JSON summary line on stdout at the end. Ends with the
 * incremental search sync so the rows are searchable, unless --no-sync or --dry-run.
 * Exit code: 0 everything landed, 3 some records or files were rejected, 1 the run could not start.
 */
import { runCli } from "./import-cli";

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`import failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
