/**
 * Browser-side use of the one validation-message mapping (lib/i18n/validation.ts): a react-hook-form resolver over a
 * zod schema whose messages are translated and labelled, a plain check for forms without react-hook-form, and the
 * reading of an API 422's `details.fields` so the server's verdict reads the same as the browser's.
 */
import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import type { Messages } from "@/lib/i18n/en";
import type { Locale } from "@/lib/i18n/locale";
import { issueMessage, issueMessages, valueAt, type FieldLabels, type IssueLike } from "@/lib/i18n/validation";
import { ApiRequestError, errorMessage, isRecord } from "./api";

interface I18nLike {
  locale: Locale;
  t: Pick<Messages, "validation">;
}

/** zodResolver's contract, with each field's message from issueMessage (the first issue of each field). */
export function localizedResolver<In extends FieldValues, Out>(schema: z.ZodType<Out, In>, i18n: I18nLike, labels: FieldLabels): Resolver<In, unknown, Out> {
  return async (values, _context, options) => {
    const parsed = await schema.safeParseAsync(values);
    if (parsed.success) return { values: parsed.data, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.filter((p) => typeof p !== "symbol").join(".");
      flat[key] ??= { type: issue.code, message: issueMessage(i18n.locale, i18n.t.validation, issue, labels, valueAt(values, issue.path)) };
    }
    return { values: {}, errors: toNestErrors<In>(flat, options) };
  };
}

/** For forms that check by hand: null when valid, else one message per field path ("" for the whole form). */
export function checkWith<Out>(schema: z.ZodType<Out>, values: unknown, i18n: I18nLike, labels: FieldLabels): { ok: true; data: Out } | { ok: false; errors: Map<string, string> } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, errors: issueMessages(i18n.locale, i18n.t.validation, parsed.error.issues, labels, values) };
}

/** The issues of an API validation error (422 VALIDATION_ERROR with details.fields[{path, code, …}]), else null. */
export function apiIssues(err: unknown): IssueLike[] | null {
  if (!(err instanceof ApiRequestError) || err.code !== "VALIDATION_ERROR") return null;
  const fields = isRecord(err.detail.details) ? err.detail.details.fields : err.detail.fields;
  if (!Array.isArray(fields)) return null;
  const issues: IssueLike[] = [];
  for (const f of fields) {
    if (!isRecord(f) || typeof f.code !== "string" || !Array.isArray(f.path)) continue;
    const path = f.path.filter((p): p is string | number => typeof p === "string" || typeof p === "number");
    issues.push({ ...f, code: f.code, path } as IssueLike);
  }
  return issues.length ? issues : null;
}

/** One message per field path of an API validation error (translated, labelled), or null for any other error. */
export function apiFieldErrors(err: unknown, i18n: I18nLike, labels: FieldLabels): Map<string, string> | null {
  const issues = apiIssues(err);
  return issues ? issueMessages(i18n.locale, i18n.t.validation, issues, labels) : null;
}

/**
 * The text of a failed request for a notice: an API validation error as its labelled, translated messages (one per
 * field, joined), anything else as errorMessage gives it.
 */
export function requestErrorText(err: unknown, i18n: I18nLike, labels: FieldLabels, fallback: string): string {
  const fields = apiFieldErrors(err, i18n, labels);
  return fields ? [...fields.values()].join(" ") : errorMessage(err, fallback);
}
