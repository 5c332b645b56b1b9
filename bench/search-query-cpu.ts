/**
 * bench/search-query-cpu: per-request CPU time of the engine's keyword search and autocomplete on an existing index
 * (no Postgres), robust to a loaded machine: each request is run N times and its minimum process.cpuUsage()
 * (user + system) is kept, plus its median wall time. Prints pooled p50/p95 of the per-request minima and the
 * slowest requests.
 *
 *   npx tsx bench/search-query-cpu.ts [--index .data/bench-search/index] [--n 15] [--only kw|ac]
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { SEARCH_BENCH_QUERIES } from "./lib/search-queries";
import { engineOnIndex, pct3 as pct } from "./lib/engine-bench";

const { values } = parseArgs({
  options: {
    index: { type: "string", default: ".data/bench-search/index" },
    n: { type: "string", default: "15" },
    only: { type: "string" },
  },
});
process.env.SEARCH_DATA_DIR = path.resolve(values.index);
const N = Number(values.n);


async function main(): Promise<void> {
  const { engine, parseIndexFilter, SEARCH_HIT_FORMAT } = await engineOnIndex();
  await engine.searchDocuments({ q: "warm", limit: 1, offset: 0 });
  type Req = { kind: "kw" | "ac"; label: string; run: () => Promise<unknown> };
  const reqs: Req[] = [];
  for (const bq of SEARCH_BENCH_QUERIES) {
    const filter = parseIndexFilter(bq.filter);
    if (values.only !== "ac") {
      reqs.push({ kind: "kw", label: bq.q, run: () => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, ...SEARCH_HIT_FORMAT }) });
    }
    if (values.only !== "kw") {
      const words = bq.q.replace(/"/g, "").split(/\s+/);
      for (const prefix of [words[0].slice(0, 3), words.slice(0, 2).join(" ")]) {
        reqs.push({ kind: "ac", label: `${prefix}${filter ? " [f]" : ""}`, run: () => engine.autocomplete({ q: prefix, limit: 10, filter }) });
      }
    }
  }
  const cpu = reqs.map(() => [] as number[]);
  const wall = reqs.map(() => [] as number[]);
  for (const r of reqs) await r.run();
  // Interleaved rounds: each request meets the caches the others leave, as in the benchmarks.
  for (let round = 0; round < N; round++) {
    for (let i = 0; i < reqs.length; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await reqs[i].run();
      const t = performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpu[i].push((c.user + c.system) / 1000);
      wall[i].push(t);
    }
  }
  const out: Record<string, unknown> = { index: values.index, n: N, load_avg: os.loadavg().map((x) => Number(x.toFixed(2))) };
  for (const kind of ["kw", "ac"] as const) {
    const idx = reqs.map((r, i) => (r.kind === kind ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const mins = idx.map((i) => Math.min(...cpu[i]));
    const meds = idx.map((i) => pct(wall[i], 50));
    const allWall = idx.flatMap((i) => wall[i]);
    out[kind] = {
      requests: idx.length,
      cpu_min: { p50_ms: pct(mins, 50), p95_ms: pct(mins, 95), max_ms: pct(mins, 100) },
      wall_all: { p50_ms: pct(allWall, 50), p95_ms: pct(allWall, 95), max_ms: pct(allWall, 100) },
      slowest_cpu_min: idx
        .map((i, j) => ({ q: reqs[i].label, cpu_min_ms: Number(mins[j].toFixed(3)), wall_p50_ms: meds[j], wall_max_ms: Number(Math.max(...wall[i]).toFixed(2)) }))
        .sort((a, b) => b.cpu_min_ms - a.cpu_min_ms)
        .slice(0, 12),
    };
  }
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  await engine.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
