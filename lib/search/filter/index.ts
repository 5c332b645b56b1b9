/** Filter expressions: parse (validated against the declared filterable list and the caps), evaluate, compile. */
import { config } from "@/lib/config";
import { FILTERABLE_ATTRIBUTES } from "../index-settings";
import type { FilterNode } from "./ast";
import { parseFilter } from "./parse";

export * from "./ast";
export { parseFilter, FilterCapError, MAX_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_VALUES } from "./parse";
export { toMeiliFilter } from "./to-meili";
export { toLanceSql, sqlString, type SqlColumnKind } from "./to-sql";
export { compileFilter, type Predicate } from "./evaluate";
export { structuredFilterNode, indexAttributeOfKey, UnsupportedFilterKeyError } from "./structured";

/**
 * Parse a filter expression against the index's declared filterable attributes, with the service's caps on IN values
 * (FILTER_MAX_LIST_VALUES per list, FILTER_MAX_TOTAL_VALUES over the expression) and on conditions
 * (FILTER_MAX_CONDITIONS): what one request may cost the evaluator is bounded.
 */
export function parseIndexFilter(input: string | undefined): FilterNode | undefined {
  if (input === undefined) return undefined;
  const c = config();
  return parseFilter(input, {
    filterable: FILTERABLE_ATTRIBUTES,
    maxListValues: c.FILTER_MAX_LIST_VALUES,
    maxTotalValues: c.FILTER_MAX_TOTAL_VALUES,
    maxConditions: c.FILTER_MAX_CONDITIONS,
  });
}
