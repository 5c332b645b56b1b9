/**
 * What the engine benches on an existing index share (bench/search-engine-profile.ts, bench/search-query-cpu.ts):
 * the embedded engine on the index SEARCH_DATA_DIR names (imported only after the caller has set it), the filter
 * parser and the hit format lib/backend/search.ts asks for, and percentiles to three decimals (sub-millisecond).
 */
import { pct as pctOf } from "./http-timing";

export const pct3 = (xs: number[], p: number): number => pctOf(xs, p, 3);

export async function engineOnIndex() {
  const { getSearch } = await import("../../lib/search/engine");
  const { parseIndexFilter } = await import("../../lib/search/filter");
  const { SEARCH_HIT_FORMAT, searchQueryParts } = await import("../../lib/backend/search");
  return { engine: getSearch().engine, parseIndexFilter, SEARCH_HIT_FORMAT, searchQueryParts };
}
