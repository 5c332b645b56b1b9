/**
 * What the engine benches on an existing index share (bench/search-engine-profile.ts, bench/search-query-cpu.ts):
 * the embedded engine on the index SEARCH_DATA_DIR names (imported only after the caller has set it), the filter
 * parser and the hit format lib/backend/search.ts asks for, and percentiles to three decimals (sub-millisecond).
 */
import { pct as pctOf, timed } from "./http-timing";

export const pct3 = (xs: number[], p: number): number => pctOf(xs, p, 3);

export async function engineOnIndex() {
  const { getSearch } = await import("../../lib/search/engine");
  const { parseIndexFilter } = await import("../../lib/search/filter");
  const { SEARCH_HIT_FORMAT, searchQueryParts } = await import("../../lib/backend/search");
  return { engine: getSearch().engine, parseIndexFilter, SEARCH_HIT_FORMAT, searchQueryParts };
}

/** The requests of one bench query with and without the hit format (highlights and crop). */
export interface HighlightPair {
  withFormat: () => Promise<unknown>;
  withoutFormat: () => Promise<unknown>;
}

/**
 * Keyword latency with and without highlighting, in one run (issue target: highlighting may not raise the engine's
 * keyword p50 by more than 10 %). Per query, `blocks` pairs of warm blocks of `rounds` requests, one with the hit
 * format and one without, the order flipping from pair to pair and query to query, so drift and the machine's
 * neighbours hit both alike; the figure to read is the ratio of the two pooled p50s, not either absolute value.
 */
export async function highlightCost(pairs: readonly HighlightPair[], rounds: number, blocks = 4) {
  const withF: number[] = [];
  const without: number[] = [];
  for (let q = 0; q < pairs.length; q++) {
    for (let b = 0; b < blocks; b++) {
      const order = (q + b) % 2 === 0 ? ["with", "without"] : ["without", "with"];
      for (const o of order) {
        if (o === "with") withF.push(...(await timed(pairs[q].withFormat, rounds)));
        else without.push(...(await timed(pairs[q].withoutFormat, rounds)));
      }
    }
  }
  const p50With = pct3(withF, 50);
  const p50Without = pct3(without, 50);
  return {
    n_each: withF.length,
    with_highlights: { p50_ms: p50With, p95_ms: pct3(withF, 95) },
    without_highlights: { p50_ms: p50Without, p95_ms: pct3(without, 95) },
    p50_ratio: Number((p50With / Math.max(0.001, p50Without)).toFixed(3)),
    p95_ratio: Number((pct3(withF, 95) / Math.max(0.001, pct3(without, 95))).toFixed(3)),
  };
}
