/** The requested sort (`sort: [{attribute, direction}]`) as a comparator of stored documents, Meilisearch's order. */
import type { SortSpec } from "../types";
import type { Candidate } from "./keyword-matches";
import type { StoredDoc } from "./live-index";

function compareValues(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const as = Array.isArray(a) ? String(a[0] ?? "") : String(a);
  const bs = Array.isArray(b) ? String(b[0] ?? "") : String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
}

export function sortComparator(sort: readonly SortSpec[], docs: Map<string, StoredDoc>): (a: Candidate, b: Candidate) => number {
  const cmp = docComparator(sort);
  return (x, y) => cmp(docs.get(x.id) as StoredDoc, docs.get(y.id) as StoredDoc);
}

export function docComparator(sort: readonly SortSpec[]): (dx: StoredDoc, dy: StoredDoc) => number {
  return (dx, dy) => {
    for (const s of sort) {
      const vx = dx[s.attribute];
      const vy = dy[s.attribute];
      const nx = vx === null || vx === undefined;
      const ny = vy === null || vy === undefined;
      // Missing values go last in both directions (Meilisearch).
      if (nx || ny) {
        if (nx && ny) continue;
        return nx ? 1 : -1;
      }
      const c = compareValues(vx, vy);
      if (c !== 0) return s.direction === "asc" ? c : -c;
    }
    return 0;
  };
}
