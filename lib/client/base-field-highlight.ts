/**
 * Which metadata keys of a judgment satisfied the filter the reader came from (spec: Web page URL state): jurisdiction
 * shows as `country`, decision_date as `date_issued`, every other filter key as `base_<field>`.
 */
import type { PageFilter } from "./filter-codec";

export function metadataKeyFor(filterKey: string): string {
  if (filterKey === "jurisdiction") return "country";
  if (filterKey === "decision_date") return "date_issued";
  if (filterKey === "court_name") return "court_name"; // a core column, not an extracted one
  return `base_${filterKey}`;
}

export function highlightedKeys(filter: PageFilter): Set<string> {
  return new Set(Object.keys(filter).map(metadataKeyFor));
}
