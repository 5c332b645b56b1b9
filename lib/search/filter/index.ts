/** Filter expressions: parse (validated against the declared filterable list), evaluate, compile. */
import { FILTERABLE_ATTRIBUTES } from "../index-settings";
import type { FilterNode } from "./ast";
import { parseFilter } from "./parse";

export * from "./ast";
export { parseFilter, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_VALUES } from "./parse";
export { toMeiliFilter } from "./to-meili";
export { toLanceSql, sqlString, type SqlColumnKind } from "./to-sql";
export { compileFilter, type Predicate } from "./evaluate";

/** Parse a filter expression against the index's declared filterable attributes. */
export function parseIndexFilter(input: string | undefined): FilterNode | undefined {
  if (input === undefined) return undefined;
  return parseFilter(input, { filterable: FILTERABLE_ATTRIBUTES });
}
