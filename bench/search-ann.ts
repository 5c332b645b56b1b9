/**
 * bench/search-ann: the IVF vector index against the exact scan (bench/lib/ann-recall.ts) plus the engine's keyword,
 * hybrid and autocomplete latency, on an index that already exists (e.g. one bench/search built), with no Postgres.
 *
 *   npx tsx bench/search-ann.ts [--index .data/bench-search/index] [--rounds 5] [--probe-percent P]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { annPhase } from "./lib/ann-recall";
import { stats, timed } from "./lib/http-timing";
import { SEARCH_BENCH_QUERIES } from "./lib/search-queries";

const { values } = parseArgs({
  options: {
    index: { type: "string", default: ".data/bench-search/index" },
    rounds: { type: "string", default: "5" },
    "probe-percent": { type: "string" },
  },
});
process.env.SEARCH_DATA_DIR = path.resolve(values.index);
if (values["probe-percent"]) process.env.SEARCH_ANN_PROBE_PERCENT = values["probe-percent"];

async function main(): Promise<void> {
  const { getSearch } = await import("../lib/search/engine");
  const { parseIndexFilter } = await import("../lib/search/filter");
  const { SEARCH_HIT_FORMAT } = await import("../lib/backend/search");
  const { engine } = getSearch();
  const rounds = Number(values.rounds);
  const t0 = performance.now();
  const health = await engine.health();
  const openMs = performance.now() - t0;
  const kw: number[] = [];
  const hy: number[] = [];
  const ac: number[] = [];
  for (const bq of SEARCH_BENCH_QUERIES) {
    const filter = parseIndexFilter(bq.filter);
    kw.push(...(await timed(() => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, ...SEARCH_HIT_FORMAT }), rounds)));
    hy.push(...(await timed(() => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, semanticRatio: 0.5 }), rounds)));
    const words = bq.q.replace(/"/g, "").split(/\s+/);
    for (const prefix of [words[0].slice(0, 3), words.slice(0, 2).join(" ")]) {
      ac.push(...(await timed(() => engine.autocomplete({ q: prefix, limit: 10, filter }), rounds)));
    }
  }
  const out = {
    documents: health.documents,
    open_ms: Math.round(openMs),
    engine: { keyword: stats(kw), hybrid: stats(hy), autocomplete: stats(ac) },
    ann: await annPhase(engine, { size: health.documents, rounds }),
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
    rss_peak_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    load_average: (await import("node:os")).loadavg().map((x) => Number(x.toFixed(2))),
  };
  await engine.close();
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
