/**
 * The full index build alone (lib/search/sync.ts fullSync into a fresh LanceDB index), for timing the build at a given
 * corpus size: seeds its own embedded Postgres (data dir per size) when it holds a different number of rows, builds,
 * prints JSON (build ms, docs/s, process peak RSS, load). `SEARCH_BUILD_WORKER=0` builds on the main thread only.
 *
 *   npx tsx bench/search-build.ts --size 12307 --data-dir .data/build-1x --port 58410 [--index-dir DIR] [--keep-index]
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { LocalHashEmbedder } from "../lib/search/embedders/local-hash";
import { LanceDbEngine } from "../lib/search/lancedb/engine";
import { fullSync } from "../lib/search/sync";
import { startDatabase } from "../server/launcher/stack";
import { seedCorpus } from "../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED } from "../supabase/seed/generate";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "12307" },
    "data-dir": { type: "string" },
    port: { type: "string", default: "58410" },
    "index-dir": { type: "string" },
    "keep-index": { type: "boolean", default: false },
  },
});
const SIZE = Number(values.size);
const dataDir = path.resolve(values["data-dir"] ?? `.data/search-build-${SIZE}`);
const indexDir = path.resolve(values["index-dir"] ?? path.join(dataDir, "index"));

/** CPU seconds of this process's main thread alone (Linux: /proc/self/task/<pid>/stat, utime + stime in ticks). */
function mainThreadCpuSeconds(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Math.round(((Number(f[11]) + Number(f[12])) / 100) * 10) / 10;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds of this process's live threads other than the main one, by thread name (V8's platform threads, which
 * run the concurrent garbage collector, are named "node" like the main thread; LanceDB's are "lance-*"/"tokio-*").
 * The build worker has exited by the time this is read: its share is the process total less the main thread and these.
 */
function otherThreadsCpuSeconds(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync(`/proc/self/task`)) {
      if (Number(tid) === process.pid) continue;
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/[-_]?\d+$/, "");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = Math.round(((out[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100) * 10) / 10;
    }
  } catch {
    // not Linux: no per-thread figures
  }
  return out;
}

async function main(): Promise<void> {
  const log = (m: string) => process.stderr.write(`[build] ${m}\n`);
  const db = await startDatabase({ dataDir, postgresPort: Number(values.port), log });
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 4 });
  pool.on("error", () => undefined); // idle clients see the server stop at the end
  try {
    const count = Number((await pool.query("select count(*) as n from public.judgments")).rows[0].n);
    if (count !== SIZE) {
      await pool.query("truncate public.judgments cascade");
      log(`seeding ${SIZE} judgments…`);
      await seedCorpus(db.databaseUrl, { size: SIZE, seed: DEFAULT_CORPUS_SEED });
    }
    rmSync(indexDir, { recursive: true, force: true });
    const embedder = new LocalHashEmbedder();
    const engine = new LanceDbEngine({ dir: indexDir, embedder });
    const load = os.loadavg();
    log(`building ${SIZE} (worker ${process.env.SEARCH_BUILD_WORKER === "0" ? "off" : "on"})…`);
    const mainCpu0 = mainThreadCpuSeconds();
    const others0 = otherThreadsCpuSeconds();
    const cpu0 = process.cpuUsage();
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    const r = await fullSync(pool, { engine, embedder });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    const others = otherThreadsCpuSeconds();
    for (const k of Object.keys(others)) others[k] = Math.round((others[k] - (others0[k] ?? 0)) * 10) / 10;
    const mainCpu = Math.round((mainThreadCpuSeconds() - mainCpu0) * 10) / 10;
    const totalCpu = Math.round((cpu.user + cpu.system) / 1e5) / 10;
    await engine.close();
    console.log(
      JSON.stringify({
        size: SIZE,
        worker: process.env.SEARCH_BUILD_WORKER !== "0",
        build_ms: Math.round(ms),
        docs_per_s: Math.round((r.documents / ms) * 1000),
        documents: r.documents,
        chunks: r.chunks,
        // CPU of every thread of the process; the main thread's event loop utilisation (its share of busy time).
        cpu_s: totalCpu,
        main_thread_cpu_s: mainCpu,
        other_threads_cpu_s: others,
        // The batch worker (exited before this is read): everything not on a thread that is still alive.
        worker_cpu_s: Math.round((totalCpu - mainCpu - Object.values(others).reduce((a, b) => a + b, 0)) * 10) / 10,
        main_thread_busy: Math.round(elu.utilization * 100) / 100,
        // resourceUsage().maxRSS is in kilobytes.
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
        loadavg_start: load.map((x) => x.toFixed(2)).join(" "),
        loadavg_end: os.loadavg().map((x) => x.toFixed(2)).join(" "),
      }),
    );
    if (!values["keep-index"]) rmSync(indexDir, { recursive: true, force: true });
  } finally {
    await pool.end();
    await db.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
