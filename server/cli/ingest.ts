/**
 * npm run ingest -- FILE.jsonl [flags]: an alias of `npm run import -- jsonl FILE.jsonl [flags]` (server/cli/import-cli.ts,
 * docs/ingestion.md) that also prints the report lines it printed before: inserted, updated, and every rejected line
 * with its reason. Exit code 0 when every line landed, 3 when some were rejected, 1 when the run could not start.
 */
import { runCli } from "./import-cli";

runCli(["jsonl", ...process.argv.slice(2).filter((a) => a !== "--")], { legacy: true }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`ingest failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
