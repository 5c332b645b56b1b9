/**
 * The one mapping from a validation issue (zod's, in the browser, or the same issue as the API returns it in
 * `details.fields`) to the text a user reads: translated, and naming the field by its label, never by its path
 * ("Field 1 – Name: required", not "fields.0.name: Too small"). Every form goes through it, so a message is worded the
 * same wherever it appears. The schema's own English message is for API callers; here only the issue's code and
 * parameters count, plus a `messageKey` param that a custom check sets to name its reason.
 */
import { formatNumber, fmt, plural, type Locale } from "./locale";
import type { Messages } from "./en";
import { validationEn } from "./areas/validation";

/** What a message needs from an issue: zod's issue fits, and so does an entry of an API 422's `details.fields`. */
export interface IssueLike {
  code: string;
  path: readonly (string | number | symbol)[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  format?: string;
  pattern?: string;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  params?: Record<string, unknown>;
}

/**
 * Labels by path pattern: array indices are written `*` ("fields.*.name"), and a label may hold `{n}`, the 1-based
 * position of the item ("fields.*": "Field {n}"). A path is named by the labels of the array items it passes through
 * and then its deepest labelled part: ["fields", 0, "name"] → "Field 1 – Name".
 */
export type FieldLabels = Readonly<Record<string, string>>;

type V = Messages["validation"];
/** The reasons a custom check may name through `params.messageKey`. */
export type ValidationMessageKey = {
  [K in keyof typeof validationEn]: (typeof validationEn)[K] extends string ? K : never;
}[keyof typeof validationEn];

const KNOWN_PATTERNS: Readonly<Record<string, ValidationMessageKey>> = {
  "^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$": "snakeCase",
  "^[a-z0-9]+(?:-[a-z0-9]+)*$": "slug",
  "^-?\\d{1,9}$": "integerText",
};

const segments = (path: IssueLike["path"]): (string | number)[] => path.filter((p): p is string | number => typeof p !== "symbol");

/** The field's label for a path (see FieldLabels); the generic "This field" when the form labels none of it. */
export function fieldLabel(v: V, path: IssueLike["path"], labels: FieldLabels): string {
  const parts = segments(path);
  const found: { depth: number; label: string; item: boolean }[] = [];
  let pattern = "";
  let n = 0;
  parts.forEach((p, i) => {
    const isIndex = typeof p === "number" || /^\d+$/.test(p);
    if (isIndex) n = Number(p) + 1;
    pattern = pattern ? `${pattern}.${isIndex ? "*" : p}` : isIndex ? "*" : String(p);
    const label = labels[pattern];
    if (label !== undefined) found.push({ depth: i, label: fmt(label, { n }), item: isIndex });
  });
  const deepest = found.at(-1);
  if (!deepest) return v.thisField;
  const chain = [...found.slice(0, -1).filter((f) => f.item).map((f) => f.label), deepest.label];
  return chain.join(v.labelSeparator);
}

const num = (x: number | bigint | undefined): number => (typeof x === "bigint" ? Number(x) : (x ?? 0));

function isEmpty(value: unknown): boolean {
  // An emptied number input reads as NaN (react-hook-form's valueAsNumber).
  return value === undefined || value === null || (typeof value === "number" && Number.isNaN(value)) || (typeof value === "string" && value.trim() === "");
}

/** The reason alone ("required", "must have at least 2 characters"), translated. `input` is the value, when known. */
export function issueReason(locale: Locale, v: V, issue: IssueLike, input?: { value: unknown }): string {
  const empty = input !== undefined && isEmpty(input.value);
  const key = issue.params?.messageKey;
  if (typeof key === "string" && key in v) {
    const text = v[key as ValidationMessageKey];
    const value = issue.params?.value;
    return fmt(text, { value: typeof value === "string" ? value : "" });
  }
  switch (issue.code) {
    case "too_small": {
      const min = num(issue.minimum);
      const origin = issue.origin ?? "";
      if (origin === "string") {
        if (empty || min <= 1) return v.required;
        return plural(locale, min, issue.exact ? v.exactLength : v.tooShort);
      }
      if (origin === "array" || origin === "set") return plural(locale, min, v.tooFewItems);
      if (origin === "date") return fmt(v.dateMin, { min: new Date(min).toISOString().slice(0, 10) });
      if (empty) return v.required;
      return fmt(issue.inclusive === false ? v.numberAbove : v.numberMin, { min: formatNumber(locale, min) });
    }
    case "too_big": {
      const max = num(issue.maximum);
      const origin = issue.origin ?? "";
      if (origin === "string") return plural(locale, max, issue.exact ? v.exactLength : v.tooLong);
      if (origin === "array" || origin === "set") return plural(locale, max, v.tooManyItems);
      if (origin === "date") return fmt(v.dateMax, { max: new Date(max).toISOString().slice(0, 10) });
      return fmt(issue.inclusive === false ? v.numberBelow : v.numberMax, { max: formatNumber(locale, max) });
    }
    case "invalid_type":
      if (empty) return v.required;
      switch (issue.expected) {
        case "number":
          return v.notNumber;
        case "int":
        case "bigint":
          return v.notInteger;
        case "string":
          return v.notText;
        case "boolean":
          return v.notBoolean;
        case "array":
          return v.notList;
        default:
          return v.invalid;
      }
    case "invalid_format": {
      if (empty) return v.required;
      switch (issue.format) {
        case "email":
          return v.email;
        case "url":
          return v.url;
        case "uuid":
        case "guid":
          return v.uuid;
        case "date":
          return v.date;
        case "datetime":
          return v.datetime;
        case "regex": {
          const known = issue.pattern ? KNOWN_PATTERNS[issue.pattern.replace(/^\/|\/[a-z]*$/g, "")] : undefined;
          return known ? v[known] : v.format;
        }
        default:
          return v.format;
      }
    }
    case "invalid_value":
      if (empty) return v.required;
      return issue.values?.length ? fmt(v.oneOf, { values: issue.values.map(String).join(", ") }) : v.invalid;
    case "unrecognized_keys":
      return fmt(v.unknownKeys, { keys: (issue.keys ?? []).join(", ") });
    case "not_multiple_of":
      return v.notInteger;
    default:
      return empty ? v.required : v.invalid;
  }
}

/** The whole message: the field's label and the reason ("Field 1 – Name: required"). */
export function issueMessage(locale: Locale, v: V, issue: IssueLike, labels: FieldLabels, input?: { value: unknown }): string {
  return fmt(v.withLabel, { label: fieldLabel(v, issue.path, labels), reason: issueReason(locale, v, issue, input) });
}

/** The value at a path of a form's values (for "required" when the field was left empty). */
export function valueAt(values: unknown, path: IssueLike["path"]): { value: unknown } {
  let cur: unknown = values;
  for (const p of segments(path)) {
    if (cur === null || typeof cur !== "object") return { value: undefined };
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return { value: cur };
}

/**
 * One message per field path (the first issue of each), keyed by the dotted path ("fields.0.name"), in issue order:
 * what a form shows beside each field or as a list.
 */
export function issueMessages(locale: Locale, v: V, issues: readonly IssueLike[], labels: FieldLabels, values?: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const issue of issues) {
    const key = segments(issue.path).join(".");
    if (out.has(key)) continue;
    out.set(key, issueMessage(locale, v, issue, labels, values === undefined ? undefined : valueAt(values, issue.path)));
  }
  return out;
}
