/**
 * The ONE parser of the structured filter object (BaseSchemaFilters, spec: Filter object) on the server. Every path
 * that takes a filter object — the structured-search routes, from-filter, the NL translator's answer and
 * `GET /api/search/documents?filters=` — validates with this schema, so a filter invalid on one path is invalid on
 * every path (D-06), with the same field named. The schema is built from the field registry (D-05): one optional key
 * per filter key, its shape from the key's control. The SQL functions re-check the same rules
 * (structured.filter_clause). Lists are capped per list and per request (security review H1): FILTER_MAX_LIST_VALUES
 * and FILTER_MAX_TOTAL_VALUES, read when a request is parsed.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { uuidSchema } from "./uuid";
import { config } from "@/lib/config";
import { filterFieldSpecs, type FilterFieldSpec } from "./filter-fields";
import type { BaseSchemaFilters } from "./filter-types";
import { isoDate } from "./requests/dates";

export type { BaseSchemaFilters, BaseSchemaFilterValue, DateRangeValue, NumericRange } from "./filter-types";


const bound = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** An any-of list of `item`, at most FILTER_MAX_LIST_VALUES long (read per request, so tests and deployments can set it). */
function cappedList<T extends z.ZodType>(item: T) {
  return z.array(item).superRefine((values, ctx) => {
    const max = config().FILTER_MAX_LIST_VALUES;
    if (values.length > max) {
      ctx.addIssue({ code: "custom", message: `at most ${max} values per list (FILTER_MAX_LIST_VALUES), got ${values.length}` });
    }
  });
}

/** Schema of one filter key's value, by control. */
function valueSchema(spec: FilterFieldSpec): z.ZodType {
  switch (spec.control) {
    case "enum_multi":
    case "tag_array":
      // Any-of; [] matches nothing (D-09).
      return spec.enumValues ? cappedList(z.enum(spec.enumValues as [string, ...string[]])) : cappedList(safeText().max(500));
    case "boolean_tri":
      return z.boolean();
    case "numeric_range":
      return z.union([z.number(), z.strictObject({ min: bound(z.number()), max: bound(z.number()) })]);
    case "date_range":
      // ISO strings naming real days only; {min,max} are aliases of {from,to} (D-08).
      return z.union([
        isoDate,
        z.strictObject({ from: bound(isoDate), to: bound(isoDate) }),
        z.strictObject({ min: bound(isoDate), max: bound(isoDate) }),
      ]);
    case "substring":
      return safeText().max(500);
    case "uuid_membership":
      return cappedList(uuidSchema);
  }
}

/** Any-of values in a (validated) filter object: what FILTER_MAX_TOTAL_VALUES bounds. */
export function countFilterListValues(filters: BaseSchemaFilters): number {
  let n = 0;
  for (const v of Object.values(filters)) if (Array.isArray(v)) n += v.length;
  return n;
}

/** BaseSchemaFilters: every filter key of the registry, optional; an unknown key is an error (D-06). */
export const BaseSchemaFiltersSchema = z
  .strictObject(
    Object.fromEntries(
      filterFieldSpecs()
        .filter((s) => s.filterable)
        .map((s) => [s.key, valueSchema(s).optional()]),
    ),
  )
  .superRefine((filters, ctx) => {
    const max = config().FILTER_MAX_TOTAL_VALUES;
    const n = countFilterListValues(filters as BaseSchemaFilters);
    if (n > max) ctx.addIssue({ code: "custom", message: `at most ${max} list values per request (FILTER_MAX_TOTAL_VALUES), got ${n}` });
  });

export interface FilterIssue {
  /** The offending top-level key, or "filters" for the object as a whole. */
  field: string;
  message: string;
}

/** The field an issue is about: the top-level key of its path, or the unknown key at the top level. */
function issueField(issue: z.core.$ZodIssue): string {
  if (issue.path.length) return String(issue.path[0]);
  if (issue.code === "unrecognized_keys" && issue.keys.length) return issue.keys[0];
  return "filters";
}

/** Validate a filter object (absent or null = no filter). Never throws; the caller turns an issue into its error. */
export function validateFilters(raw: unknown): { ok: true; filters: BaseSchemaFilters } | { ok: false; issue: FilterIssue } {
  if (raw === undefined || raw === null) return { ok: true, filters: {} };
  if (typeof raw !== "object" || Array.isArray(raw)) return { ok: false, issue: { field: "filters", message: "filters must be a JSON object." } };
  const parsed = BaseSchemaFiltersSchema.safeParse(raw);
  // The registry is data, so zod infers only string keys; the value shapes it checked are spelled out in filter-types.ts.
  if (parsed.success) return { ok: true, filters: parsed.data as BaseSchemaFilters };
  const issue = parsed.error.issues[0];
  const field = issueField(issue);
  const message =
    issue.code === "unrecognized_keys" && issue.path.length === 0
      ? `Unknown filter key "${field}".`
      : field === "filters"
        ? `Invalid filters: ${issue.message}.`
        : `Invalid value for filter "${field}": ${issue.message}.`;
  return { ok: false, issue: { field, message } };
}
