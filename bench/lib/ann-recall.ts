/**
 * The approximate vector index (lib/search/lancedb/ann.ts, P-51) against the exact scan, in the engine: hybrid
 * (ratio 0.5) and semantic (ratio 1) top 10 of the 40 bench queries with the IVF probe beside the exact scan,
 * recall@10 = |IVF top 10 ∩ exact top 10| / 10 averaged over queries, and both hybrid latencies. Below the
 * threshold the IVF is forced on (trained here) so that the threshold can be read off runs at 1x, 4x and 10x; the
 * engine's own setting is restored after. Used by bench/search.ts and bench/search-ann.ts.
 */
import { performance } from "node:perf_hooks";
import { parseIndexFilter } from "../../lib/search/filter";
import { annSettings, listCount, probeCount, setAnnSettings } from "../../lib/search/lancedb/ann";
import type { SearchEngine } from "../../lib/search/types";
import { stats, timed } from "./http-timing";
import { SEARCH_BENCH_QUERIES as QUERIES } from "./search-queries";

export async function annPhase(engine: SearchEngine, opts: { size: number; rounds: number }): Promise<Record<string, unknown>> {
  const settings = annSettings();
  const active = opts.size >= settings.minRows;
  const top10 = async (q: string, filter: string | undefined, ratio: number) =>
    (await engine.searchDocuments({ q, filter: parseIndexFilter(filter), limit: 10, offset: 0, semanticRatio: ratio })).hits.map(
      (h) => h.document.id,
    );
  const run = async () => {
    const hybrid: number[] = [];
    const results: string[][] = [];
    for (const bq of QUERIES) {
      for (const ratio of [0.5, 1]) results.push(await top10(bq.q, bq.filter, ratio));
      const filter = parseIndexFilter(bq.filter);
      hybrid.push(...(await timed(() => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, semanticRatio: 0.5 }), opts.rounds)));
    }
    return { hybrid, results };
  };
  try {
    setAnnSettings({ minRows: Number.MAX_SAFE_INTEGER });
    const exact = await run();
    setAnnSettings({ minRows: 1 });
    const t0 = performance.now();
    await engine.searchDocuments({ q: "warm", limit: 1, offset: 0, semanticRatio: 0.5 });
    const firstMs = performance.now() - t0;
    const approx = await run();
    const recall = (which: number) => {
      let sum = 0;
      let n = 0;
      for (let i = which; i < exact.results.length; i += 2) {
        const want = exact.results[i];
        if (want.length === 0) continue;
        const got = new Set(approx.results[i]);
        sum += want.filter((id) => got.has(id)).length / want.length;
        n++;
      }
      return n === 0 ? null : Number((sum / n).toFixed(4));
    };
    const hybridRecall = recall(0);
    return {
      threshold_documents: settings.minRows,
      active_in_engine: active,
      lists: listCount(opts.size),
      probes: probeCount(settings, listCount(opts.size)),
      probe_percent: settings.probePercent,
      first_hybrid_query_ms_incl_training_if_untrained: Math.round(firstMs),
      hybrid_exact_scan: stats(exact.hybrid),
      hybrid_ivf: stats(approx.hybrid),
      recall_at_10_hybrid_vs_exact: hybridRecall,
      recall_at_10_semantic_only_vs_exact: recall(1),
      // What the engine serves at this size: the IVF's recall when it is active, else exact (recall 1 by definition).
      recall_at_10_hybrid: active ? hybridRecall : null,
    };
  } finally {
    setAnnSettings(null);
  }
}
