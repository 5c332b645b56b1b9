/** Facet counts over the matching documents: each distinct value once per document, most frequent first. */
import type { StoredDoc } from "./live-index";

export function facetDistribution(
  docs: ReadonlyMap<string, StoredDoc>,
  ids: Iterable<string>,
  facets: readonly string[],
  max: number,
  facetQuery?: string,
): Record<string, Record<string, number>> {
  const counts = facets.map(() => new Map<string, number>());
  const fq = facetQuery ? facetQuery.toLowerCase() : null;
  for (const id of ids) {
    const doc = docs.get(id);
    if (!doc) continue;
    facets.forEach((f, i) => {
      const v = doc[f];
      const values = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
      const seen = new Set<string>();
      for (const x of values) {
        const key = typeof x === "object" ? JSON.stringify(x) : String(x);
        if (seen.has(key)) continue;
        seen.add(key);
        if (fq && !key.toLowerCase().includes(fq)) continue;
        counts[i].set(key, (counts[i].get(key) ?? 0) + 1);
      }
    });
  }
  const out: Record<string, Record<string, number>> = {};
  facets.forEach((f, i) => {
    const top = [...counts[i].entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max);
    out[f] = Object.fromEntries(top);
  });
  return out;
}
