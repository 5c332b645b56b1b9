/**
 * The structured filter object (BaseSchemaFilters), ALREADY VALIDATED by the one server parser (lib/schema/filters.ts),
 * as a search-engine filter AST. Only the mapping lives here; shapes, enum values, real dates and caps were checked by
 * the parser, so the search path and the SQL path accept exactly the same objects. Control → clause, as the SQL does it
 * (structured.filter_clause): enum_multi / tag_array → IN (empty list matches nothing, D-09), boolean_tri → = true/false,
 * numeric_range → = n, or >= min AND <= max, date_range → whole UTC days on the epoch-second twin (D-26).
 * Keys the index cannot filter on (court_name, the substring keys, collection_ids) throw UnsupportedFilterKeyError.
 */
import { filterFieldSpec, type FilterFieldSpec } from "@/lib/schema/filter-fields";
import type { BaseSchemaFilters, BaseSchemaFilterValue, DateRangeValue, NumericRange } from "@/lib/schema/filter-types";
import { dateToEpochSeconds } from "../document";
import { FILTERABLE_ATTRIBUTES, TS_SUFFIX } from "../index-settings";
import { andAll, type FilterNode } from "./ast";

/** A valid filter key that the search index has no attribute for. */
export class UnsupportedFilterKeyError extends Error {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`Filter "${key}" cannot be used in a search: ${reason}`);
    this.name = "UnsupportedFilterKeyError";
    this.key = key;
  }
}

const FILTERABLE = new Set(FILTERABLE_ATTRIBUTES);
const DAY_LAST_SECOND = 86_399;

/** The index attribute a filter key filters on: its column, or the column's epoch twin for dates (D-26). */
export function indexAttributeOfKey(spec: FilterFieldSpec): string | undefined {
  const attr = spec.dbType === "date" || spec.dbType === "timestamptz" ? spec.column + TS_SUFFIX : spec.column;
  return FILTERABLE.has(attr) ? attr : undefined;
}

function dateClause(attr: string, v: DateRangeValue): FilterNode | undefined {
  if (typeof v === "string") {
    const t = dateToEpochSeconds(v);
    return { type: "range", attribute: attr, from: t, to: t + DAY_LAST_SECOND };
  }
  const lo = "from" in v ? v.from : "min" in v ? v.min : undefined;
  const hi = "to" in v ? v.to : "max" in v ? v.max : undefined;
  return andAll([
    lo == null ? undefined : { type: "compare", attribute: attr, op: ">=", value: dateToEpochSeconds(lo) },
    hi == null ? undefined : { type: "compare", attribute: attr, op: "<=", value: dateToEpochSeconds(hi) + DAY_LAST_SECOND },
  ]);
}

function numericClause(attr: string, v: number | NumericRange): FilterNode | undefined {
  if (typeof v === "number") return { type: "compare", attribute: attr, op: "=", value: v };
  return andAll([
    v.min == null ? undefined : { type: "compare", attribute: attr, op: ">=", value: v.min },
    v.max == null ? undefined : { type: "compare", attribute: attr, op: "<=", value: v.max },
  ]);
}

function clause(spec: FilterFieldSpec, attr: string, value: BaseSchemaFilterValue): FilterNode | undefined {
  switch (spec.control) {
    case "enum_multi":
    case "tag_array":
      return { type: "in", attribute: attr, values: value as string[], negated: false };
    case "boolean_tri":
      return { type: "compare", attribute: attr, op: "=", value: value as boolean };
    case "numeric_range":
      return numericClause(attr, value as number | NumericRange);
    case "date_range":
      return dateClause(attr, value as DateRangeValue);
    case "substring":
    case "uuid_membership":
      throw new UnsupportedFilterKeyError(spec.key, "the search index has no substring or membership filter");
  }
}

/** A validated filter object → the filter AST (undefined when it adds no clause). */
export function structuredFilterNode(filters: BaseSchemaFilters): FilterNode | undefined {
  const parts: Array<FilterNode | undefined> = [];
  // Key order does not change the answer; sorted so one filter always gives one AST (the engine memoises by it).
  for (const key of Object.keys(filters).sort()) {
    const spec = filterFieldSpec(key);
    if (!spec || !spec.filterable) throw new UnsupportedFilterKeyError(key, "not a filter key"); // unreachable after parsing
    if (spec.control === "substring" || spec.control === "uuid_membership") {
      throw new UnsupportedFilterKeyError(key, "the search index has no substring or membership filter");
    }
    const attr = indexAttributeOfKey(spec);
    if (!attr) throw new UnsupportedFilterKeyError(key, "it is not a filterable attribute of the search index");
    parts.push(clause(spec, attr, filters[key]));
  }
  return andAll(parts);
}
