/**
 * A custom schema field's rule: how the rules extractor (no model) fills it. Without a rule a custom field cannot be
 * filled in rules mode (lib/extraction/fillability.ts), so a schema editor offers one of four kinds:
 *   - regex:    a regular expression; the first capture group (or the whole match) is the value;
 *   - keywords: a list of words or phrases; the ones found are the value (a yes/no field: whether any is found);
 *   - date:     the first date written after an optional cue phrase (e.g. "date of offence");
 *   - number:   the first number written after a cue phrase (e.g. "number of victims").
 * A regex is user input that runs over every judgment of a job, so it is checked here (length, syntax, and the shapes
 * that backtrack catastrophically) and also run under a time bound by the extractor (lib/extraction/custom-rules.ts).
 */
import { z } from "zod";
import { safeText } from "./text";

export const FIELD_RULE_KINDS = ["regex", "keywords", "date", "number"] as const;
export type FieldRuleKind = (typeof FIELD_RULE_KINDS)[number];

export const REGEX_MAX_LENGTH = 200;
export const KEYWORDS_MAX = 50;
export const CUE_MAX_LENGTH = 100;

/**
 * Why a pattern is refused, or null when it may run. Refused: over REGEX_MAX_LENGTH characters, not a valid
 * JavaScript (Unicode) regular expression, a back-reference (backtracking over them is exponential), or a repeated
 * group that itself holds a repetition or alternatives — `(a+)+`, `(a|ab)*`, `(\w+\s?)*` — the shapes behind
 * catastrophic backtracking. What remains can still be slow on a long text, so it also runs with a time bound.
 */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > REGEX_MAX_LENGTH) return `is longer than ${REGEX_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern, "iu");
  } catch (e) {
    return `is not a valid regular expression (${e instanceof Error ? e.message.replace(/^Invalid regular expression: /, "") : String(e)})`;
  }
  if (/\\[1-9]|\\k</.test(pattern)) return "may not use back-references";
  // Walk the pattern: for each open group, whether it holds a repetition or an alternative; a group closed and then
  // repeated without an upper bound (or more than a few times) with either inside is refused.
  const stack: { risky: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      continue;
    }
    const top = stack[stack.length - 1];
    if (ch === "(") {
      stack.push({ risky: false });
      continue;
    }
    if (ch === "|") {
      if (top) top.risky = true;
      continue;
    }
    if (ch === "*" || ch === "+" || (ch === "{" && /^\{\d+,\d*\}/.test(pattern.slice(i)))) {
      if (top) top.risky = true;
      continue;
    }
    if (ch === ")") {
      const closed = stack.pop();
      if (!closed) continue; // unbalanced: RegExp above already refused it
      const after = pattern.slice(i + 1);
      // Repeated: *, +, {n,}, {n,m} or {n} with more than one pass ({0,1} and {1} are not repetitions).
      const counted = after.match(/^\{(\d+)(,(\d*))?\}/);
      const most = counted ? (counted[2] === undefined ? Number(counted[1]) : counted[3] === "" ? Infinity : Number(counted[3])) : 0;
      const repeated = /^[*+]/.test(after) || most > 1;
      if (repeated && closed.risky) return "may not repeat a group that itself repeats or has alternatives (it can take forever on some texts)";
      // What an inner group holds makes its parent risky too: ((a+)b)+ backtracks like (a+)+.
      const parent = stack[stack.length - 1];
      if (parent && (closed.risky || repeated)) parent.risky = true;
    }
  }
  return null;
}

const cue = () => safeText().trim().min(1).max(CUE_MAX_LENGTH);

export const fieldRuleSchema = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("regex"),
      pattern: safeText()
        .min(1)
        .superRefine((p, ctx) => {
          const problem = regexProblem(p);
          if (problem) ctx.addIssue({ code: "custom", message: `the regular expression ${problem}` });
        }),
      case_sensitive: z.boolean().default(false),
    }),
    z.strictObject({
      kind: z.literal("keywords"),
      keywords: z.array(safeText().trim().min(1).max(100)).min(1).max(KEYWORDS_MAX),
    }),
    z.strictObject({ kind: z.literal("date"), cue: cue().optional() }),
    // A number needs its cue: the first number of a judgment is its docket, not the value asked for.
    z.strictObject({ kind: z.literal("number"), cue: cue() }),
  ]);
export type FieldRule = z.infer<ReturnType<typeof fieldRuleSchema>>;

/** Which field types each rule kind can fill (a date rule fills a date, a number rule a number; regex and keywords any). */
export const RULE_TYPES: Record<FieldRuleKind, readonly string[]> = {
  regex: ["string", "string[]", "integer", "number", "boolean", "date", "enum", "enum[]"],
  keywords: ["string", "string[]", "boolean", "enum", "enum[]"],
  date: ["date"],
  number: ["integer", "number"],
};
