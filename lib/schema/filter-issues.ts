/**
 * How an issue found in a request's filter object is answered (D-06): 422 FILTER_INVALID naming the top-level key, or
 * the code the issue carries (the collection_ids checks). Kept apart from the registry-built schema (./filters.ts) so
 * the route wrapper maps issues without loading the field registry on every route.
 */
import type { z } from "zod";
import { ApiError } from "@/lib/errors";

export const NOT_AN_OBJECT = "filters must be a JSON object.";

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

/**
 * A filter field's zod issue carries the catalogue code the route wrapper answers (lib/api/route.ts validationError)
 * and, for FILTER_INVALID, the filter key it names. Tagged rather than recognised by path: other schemas have a
 * `filters` key of another shape (the /api/v1 reference filters), whose issues stay VALIDATION_ERROR.
 */
export type FilterIssueParams =
  | { code: "FILTER_INVALID"; field: string }
  | { code: "COLLECTION_IDS_NOT_ALLOWED" | "INVALID_COLLECTION_ID" | "VALIDATION_ERROR" };

/**
 * The FILTER_INVALID answer of an issue found under a request's filter field, `path` relative to the filter object:
 * the top-level key named (or "filters" for the object as a whole), as validateFilters words it.
 */
export function filterIssue(issue: z.core.$ZodIssue): FilterIssue {
  const field = issueField(issue);
  const message =
    issue.code === "unrecognized_keys" && issue.path.length === 0
      ? `Unknown filter key "${field}".`
      : field === "filters"
        ? issue.message === NOT_AN_OBJECT
          ? NOT_AN_OBJECT
          : `Invalid filters: ${issue.message}.`
        : `Invalid value for filter "${field}": ${issue.message}.`;
  return { field, message };
}

/** The code (and field) a filter field's issue carries, if it is one. */
export function filterIssueParams(issue: z.core.$ZodIssue): FilterIssueParams | undefined {
  if (issue.code !== "custom") return undefined;
  const p = issue.params as Partial<FilterIssueParams> | undefined;
  return typeof p?.code === "string" ? (p as FilterIssueParams) : undefined;
}

/** The error of a filter field's issue: its code, with the filter key for FILTER_INVALID (D-06). */
export function filterFieldError(issue: z.core.$ZodIssue): ApiError {
  const p = filterIssueParams(issue);
  if (p?.code === "FILTER_INVALID") return new ApiError("FILTER_INVALID", issue.message, { field: p.field });
  if (p) return new ApiError(p.code, issue.message);
  const { field, message } = filterIssue(issue);
  return new ApiError("FILTER_INVALID", message, { field });
}
