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
import { config } from "@/lib/config";
import { filterFieldSpecs, type FilterFieldSpec } from "./filter-fields";
import type { BaseSchemaFilters } from "./filter-types";
import { isoDate } from "./requests/dates";
import { isUuid, uuidSchema } from "./uuid";
import { filterFieldError, filterIssue, NOT_AN_OBJECT, type FilterIssue, type FilterIssueParams } from "./filter-issues";

export type { FilterIssue } from "./filter-issues";
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

/** What a value refused by its key's pattern should have been (the only patterned key is `cites`). */
const patternMessage = (key: string) =>
  key === "cites" ? "each value must be a provision id (PL/kk/279/§1, UK/ukpga/1861/100/s18) or a judgment id" : "a value does not have the expected form";

/** Schema of one filter key's value, by control. */
function valueSchema(spec: FilterFieldSpec): z.ZodType {
  switch (spec.control) {
    case "enum_multi":
    case "tag_array":
      // Any-of; [] matches nothing (D-09).
      if (spec.enumValues) return cappedList(z.enum(spec.enumValues as [string, ...string[]]));
      if (spec.valuePattern) return cappedList(safeText().max(500).regex(new RegExp(spec.valuePattern, "u"), { message: patternMessage(spec.key) }));
      return cappedList(safeText().max(500));
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

/** Validate a filter object (absent or null = no filter). Never throws; the caller turns an issue into its error. */
export function validateFilters(raw: unknown): { ok: true; filters: BaseSchemaFilters } | { ok: false; issue: FilterIssue } {
  if (raw === undefined || raw === null) return { ok: true, filters: {} };
  if (typeof raw !== "object" || Array.isArray(raw)) return { ok: false, issue: { field: "filters", message: NOT_AN_OBJECT } };
  const parsed = BaseSchemaFiltersSchema.safeParse(raw);
  // The registry is data, so zod infers only string keys; the value shapes it checked are spelled out in filter-types.ts.
  if (parsed.success) return { ok: true, filters: parsed.data as BaseSchemaFilters };
  return { ok: false, issue: filterIssue(parsed.error.issues[0]) };
}

/**
 * Whether a request's filter object may carry collection_ids: refused by key presence where nothing checks
 * ownership (filter, aggregate, facets, topics, search: 400 COLLECTION_IDS_NOT_ALLOWED, D-10), or allowed as UUIDs
 * only, checked before anything else about the filter (from-filter: 400 INVALID_COLLECTION_ID).
 */
export type CollectionIdsRule = "refuse" | "uuids";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const hasCollectionIds = (raw: unknown): raw is Record<string, unknown> =>
  isObject(raw) && Object.prototype.hasOwnProperty.call(raw, "collection_ids");

const COLLECTION_IDS_REFUSED = "collection_ids is not allowed in filters on this endpoint.";
const COLLECTION_IDS_NOT_UUIDS = "collection_ids must be a list of collection UUIDs.";

/**
 * The filter object of a request schema: the registry's schema (BaseSchemaFiltersSchema) behind the edge checks the
 * endpoints need first, so a handler receives a typed BaseSchemaFilters (absent or null = `{}`, no filter). Issues
 * under this field answer 422 FILTER_INVALID naming the key (lib/api/route.ts validationError); the collection_ids
 * checks carry their own code (FilterIssueParams). `required` refuses absent and null (422 VALIDATION_ERROR): on
 * from-filter null would otherwise read as "no filter", the whole corpus.
 */
export function filtersField(opts: { collectionIds: CollectionIdsRule; required?: boolean }) {
  // optional(): an absent key still reaches the transform (no filter, or the `required` refusal).
  return z.unknown().optional().transform((raw, ctx): BaseSchemaFilters => {
    const issue = (message: string, params: FilterIssueParams, path: PropertyKey[] = []) => {
      ctx.addIssue({ code: "custom", message, params, path });
      return z.NEVER;
    };
    if (raw === undefined || raw === null) {
      return opts.required ? issue("is required (a filter object; null is not one)", { code: "VALIDATION_ERROR" }) : {};
    }
    if (hasCollectionIds(raw)) {
      if (opts.collectionIds === "refuse") return issue(COLLECTION_IDS_REFUSED, { code: "COLLECTION_IDS_NOT_ALLOWED" });
      const ids = raw.collection_ids;
      if (!Array.isArray(ids) || ids.some((id) => !isUuid(id))) return issue(COLLECTION_IDS_NOT_UUIDS, { code: "INVALID_COLLECTION_ID" });
    }
    const r = validateFilters(raw);
    if (r.ok) return r.filters;
    // Re-issued under the key it names, carrying its code: the route wrapper answers FILTER_INVALID with that field.
    return issue(r.issue.message, { code: "FILTER_INVALID", field: r.issue.field }, r.issue.field === "filters" ? [] : [r.issue.field]);
  });
}

/**
 * The filter object of a query string (`?filters=<JSON text>`): the text parsed as JSON, then `filtersField`. Bad JSON
 * is 422 FILTER_INVALID like any other filter issue; a text over `maxChars` stays a 422 VALIDATION_ERROR.
 */
export function filtersQueryField(opts: { collectionIds: CollectionIdsRule; maxChars: number }) {
  return safeText()
    .max(opts.maxChars)
    .optional()
    .transform((s, ctx): unknown => {
      if (s === undefined || s.trim() === "") return undefined;
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "filters is not valid JSON", params: { code: "FILTER_INVALID", field: "filters" } satisfies FilterIssueParams });
        return z.NEVER;
      }
    })
    .pipe(filtersField({ collectionIds: opts.collectionIds }));
}

/** The collection ids of a from-filter filter object (UUIDs by its schema), lower-cased and distinct. */
export function collectionIdsOf(filters: BaseSchemaFilters): string[] {
  const ids = filters.collection_ids;
  return Array.isArray(ids) ? [...new Set(ids.map((id) => String(id).toLowerCase()))] : [];
}

/**
 * A filter object taken from somewhere other than a request schema (a saved search's stored params, a query string
 * read with other parameters): the same checks as `filtersField`, thrown as the same errors.
 */
export function parseFilters(raw: unknown, collectionIds: CollectionIdsRule = "refuse"): BaseSchemaFilters {
  const r = filtersField({ collectionIds }).safeParse(raw);
  if (r.success) return r.data;
  throw filterFieldError(r.error.issues[0]);
}
