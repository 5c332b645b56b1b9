/**
 * npm run ingest -- FILE.jsonl
 * Upserts judgments from a JSONL file into DATABASE_URL (env or .env.local), with a progress bar and a final report:
 * inserted, updated, and every rejected line with its reason. Exit code 0 when every line landed, 3 when some were
 * rejected, 1 when the run could not start.
 */
import { existsSync } from "node:fs";
import cliProgress from "cli-progress";
import { databaseUrlFromEnv } from "./cli-env";
import { ingestFile } from "./ingest";

async function main() {
  const file = process.argv.slice(2).find((a) => a !== "--");
  if (!file || file === "--help" || file === "-h") {
    console.log("usage: npm run ingest -- FILE.jsonl   (format: docs/ingestion.md)");
    process.exitCode = file ? 0 : 1;
    return;
  }
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const url = databaseUrlFromEnv();
  const bar = new cliProgress.SingleBar(
    { format: "ingesting [{bar}] {percentage}% | line {lines}", hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1, 0, { lines: 0 });
  const report = await ingestFile(url, file, {
    onProgress: ({ lines, bytes, totalBytes }) => {
      bar.setTotal(Math.max(1, totalBytes));
      bar.update(bytes, { lines });
    },
  });
  bar.stop();
  console.log(`inserted ${report.inserted}, updated ${report.updated}, rejected ${report.rejected.length} (${report.lines} lines, ${(report.ms / 1000).toFixed(1)} s)`);
  for (const r of report.rejected) console.log(`  line ${r.line}: ${r.reason}`);
  if (report.rejected.length) process.exitCode = 3;
}

main().catch((e: Error) => {
  console.error(`ingest failed: ${e.message}`);
  process.exitCode = 1;
});
