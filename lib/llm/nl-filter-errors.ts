/**
 * The translator's two error codes (spec: Errors): 422 NL_FILTER_INVALID when the output holds a value outside the
 * allowed enumerations (the caller should rephrase), 502 NL_FILTER_FAILED for any other translation failure.
 */
import type { z } from "zod";
import { ApiError } from "@/lib/errors";

export type NlFilterErrorCode = "NL_FILTER_INVALID" | "NL_FILTER_FAILED";

export function nlInvalid(message: string, field?: string): ApiError {
  return new ApiError("NL_FILTER_INVALID", message, field ? { field } : {});
}

export function nlFailed(message = "The question could not be translated into a filter. Try again later."): ApiError {
  return new ApiError("NL_FILTER_FAILED", message);
}

/**
 * Is a zod issue about a value outside a fixed set (an enumeration or literal) or a key outside the key set? Union
 * issues are not looked into: a union's failed branches report unrelated mismatches (a {from,to} range refused by
 * the {min,max} branch as an unknown key), which would misread a malformed value as an out-of-set one.
 */
export function isOutsideAllowedSet(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_value" || issue.code === "unrecognized_keys";
}

/** The filter key an issue is about (paths start with "filters" in the model's answer, not in a filter object). */
export function issueKey(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.keys.length > 0) return issue.keys[0];
  const path = issue.path.filter((p): p is string => typeof p === "string");
  return path[0] === "filters" ? path[1] : path[0];
}
