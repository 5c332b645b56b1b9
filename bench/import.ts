/**
 * bench/import: parse + upsert throughput of `npm run import` per source, on the real samples
 * (tests/fixtures/real-formats) repeated to N records each (default 10,000) with distinct ids, and the peak RSS of
 * each run (sampled every 50 ms) — the targets: ≥ 1,000 judgments/s for SAOS and JuDDGES JSON, ≥ 300/s for
 * LegalDocML, peak RSS ≤ 500 MB whatever the file size. Each source is also run as --dry-run (parse and map only).
 * Uses its own throw-away Postgres cluster in .data/bench-import (port BENCH_PG_PORT, default 54443) with every
 * migration applied; no sync (the index is not part of this figure). Prints JSON with the machine's load.
 * Usage: npm run bench:import -- [--records 10000] [--sources saos,juddges,fcl]
 */
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parquetWriteFile } from "hyparquet-writer";
import { runImport } from "../lib/import/run";
import type { ImportSource } from "../lib/import/types";
import { repoRoot } from "../server/paths";
import { startDatabase } from "../server/launcher/stack";

const FIX = path.join(repoRoot, "tests/fixtures/real-formats");

async function writeLines(file: string, n: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) if (!out.write(`${line(i)}\n`)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** One SAOS dump page (`{links, items[]}`) of n items: the two real samples alternately, ids made distinct. */
async function saosPage(dir: string, n: number): Promise<string> {
  const ct = readFileSync(path.join(FIX, "saos/dump-item-205374.constitutional-tribunal.json"), "utf8").trim();
  const cc = JSON.stringify((JSON.parse(readFileSync(path.join(FIX, "saos/api-judgments-227221.date-2016-04-14.json"), "utf8")) as { data: unknown }).data);
  const file = path.join(dir, "saos-dump-page.json");
  const out = createWriteStream(file);
  out.write('{"links":[],"items":[\n');
  for (let i = 0; i < n; i++) {
    const item = (i % 2 ? cc : ct).replace(/^\{\s*"id"\s*:\s*\d+/, `{"id":${1_000_000 + i}`);
    if (!out.write(`${i ? "," : ""}${item}\n`)) await once(out, "drain");
  }
  out.write('],"queryTemplate":{},"info":{}}\n');
  out.end();
  await once(out, "finish");
  return file;
}

async function juddgesJsonl(dir: string, n: number): Promise<string> {
  const row = JSON.parse(readFileSync(path.join(FIX, "juddges/pl-court-raw.row-v1.154505000005127_XVII_AmA_000014_1994_Uz_1994-07-20_001.json"), "utf8")) as Record<string, unknown>;
  const file = path.join(dir, "pl-court-raw.jsonl");
  await writeLines(file, n, (i) => JSON.stringify({ ...row, _id: `bench-${i}-${row._id as string}` }));
  return file;
}

function juddgesParquet(dir: string, n: number): string {
  const row = JSON.parse(readFileSync(path.join(FIX, "juddges/pl-court-raw.row-v1.154505000005127_XVII_AmA_000014_1994_Uz_1994-07-20_001.json"), "utf8")) as Record<string, unknown>;
  const file = path.join(dir, "pl-court-raw.parquet");
  const ids = Array.from({ length: n }, (_, i) => `bench-pq-${i}`);
  const rep = <T>(v: T) => Array.from({ length: n }, () => v);
  parquetWriteFile({
    filename: file,
    rowGroupSize: 1_000,
    columnData: [
      { name: "judgment_id", data: ids, type: "STRING" },
      { name: "docket_number", data: rep(row.signature as string), type: "STRING" },
      { name: "judgment_date", data: rep(new Date("1994-07-20T00:00:00Z")), type: "TIMESTAMP" },
      { name: "court_name", data: rep(row.court_name as string), type: "STRING" },
      { name: "department_name", data: rep(row.department_name as string), type: "STRING" },
      { name: "judgment_type", data: rep(row.type as string), type: "STRING" },
      { name: "presiding_judge", data: rep(row.chairman as string), type: "STRING" },
      { name: "judges", data: rep(row.judges as string[]) },
      { name: "full_text", data: rep(row.text as string), type: "STRING" },
      { name: "xml_content", data: rep(row.content as string), type: "STRING" },
      { name: "extracted_legal_bases", data: rep(row.text_legal_bases as unknown[]) },
    ],
  });
  return file;
}

function fclFiles(dir: string, n: number): string {
  const xml = readFileSync(path.join(FIX, "uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml"), "utf8");
  const sub = path.join(dir, "fcl");
  mkdirSync(sub, { recursive: true });
  for (let i = 0; i < n; i++) {
    writeFileSync(path.join(sub, `${String(i).padStart(6, "0")}.xml`), xml.replaceAll("/id/ewca/civ/2025/673", `/id/ewca/civ/2025/bench-${i}`));
  }
  return sub;
}

async function measure(source: ImportSource, input: string, databaseUrl: string, dryRun: boolean) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  const s = await runImport({ source, inputs: [input], databaseUrl, dryRun, batchSize: 200 });
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    dry_run: dryRun,
    read: s.read,
    inserted: s.inserted,
    rejected: s.rejected,
    ms: Math.round(ms),
    per_s: Math.round((s.read / ms) * 1000),
    peak_rss_mb: Math.round(peak / 1024 / 1024),
  };
}

async function main() {
  const { values } = parseArgs({ options: { records: { type: "string" }, sources: { type: "string" } } });
  const n = Number(values.records ?? 10_000);
  const sources = (values.sources ?? "saos,juddges,juddges-parquet,fcl").split(",");
  const work = path.join(repoRoot, ".data", "bench-import-files");
  const dataDir = path.join(repoRoot, ".data", "bench-import");
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const db = await startDatabase({ dataDir, postgresPort: Number(process.env.BENCH_PG_PORT ?? 54443) });
  const results: Record<string, unknown> = {};
  try {
    for (const name of sources) {
      const t0 = performance.now();
      const [source, input]: [ImportSource, string] =
        name === "saos"
          ? ["saos", await saosPage(work, n)]
          : name === "juddges"
            ? ["juddges", await juddgesJsonl(work, n)]
            : name === "juddges-parquet"
              ? ["juddges", juddgesParquet(work, n)]
              : ["fcl", fclFiles(work, n)];
      const prepareMs = Math.round(performance.now() - t0);
      const parse = await measure(source, input, db.databaseUrl, true);
      const upsert = await measure(source, input, db.databaseUrl, false);
      const rerun = await measure(source, input, db.databaseUrl, false);
      results[name] = { records: n, prepare_files_ms: prepareMs, parse_only: parse, parse_and_upsert: upsert, rerun_unchanged: rerun };
    }
  } finally {
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    JSON.stringify(
      {
        bench: "import",
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load_1_5_15: os.loadavg().map((l) => Number(l.toFixed(2))), mem_gb: Math.round(os.totalmem() / 2 ** 30) },
        targets: { saos_per_s: 1000, juddges_json_per_s: 1000, legaldocml_per_s: 300, peak_rss_mb: 500 },
        results,
      },
      null,
      2,
    ),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
