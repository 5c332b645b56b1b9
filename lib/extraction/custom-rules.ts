/**
 * The rules extractor's reading of a custom field's own rule (lib/schema/field-rules.ts): a regular expression, a
 * keyword list, or a date or number after a cue phrase. Deterministic, no model. A regex is user input, so besides the
 * checks made when the schema is saved it runs in a separate V8 context with a time bound: a pattern that still
 * backtracks too long on one text gives no value for that text (and says so), never a stuck worker.
 */
import vm from "node:vm";
import type { FieldRule } from "@/lib/schema/field-rules";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { NUMBER, parseNumber } from "@/lib/extraction/sentence-numbers/numbers";
import { parseDate, squash } from "./rules/text";

/** Time one regex may take over one judgment. */
export const REGEX_TIME_LIMIT_MS = 250;
const MAX_MATCHES = 50;
const MAX_VALUE_LENGTH = 1000;

export interface RuleReading {
  value: unknown;
  /** Set when the rule could not be applied to this text (a regex over its time bound). */
  problem?: string;
}

/** Latin letters with diacritics → their base letter, lower case (ł has no decomposition, so it is listed). */
const BASE_LETTER = new Map<string, string>([["ł", "l"], ["Ł", "l"]]);
for (let c = 0xc0; c <= 0x24f; c++) {
  const ch = String.fromCharCode(c);
  const base = ch.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  if (base.length === 1 && base !== ch) BASE_LETTER.set(ch, base);
}

/**
 * Lower case without diacritics, one character for one (ł → l), so an offset in the folded text is the same offset in
 * the original: keywords and cues match "Wlamanie" and "włamanie" alike.
 */
export function fold(s: string): string {
  const lower = s.toLowerCase();
  // toLowerCase keeps the length except for a few letters (İ); then fold character by character.
  const same = lower.length === s.length ? lower : [...s].map((ch) => { const l = ch.toLowerCase(); return l.length === ch.length ? l : ch; }).join("");
  return same.replace(/[\u00c0-\u024f]/g, (ch) => BASE_LETTER.get(ch) ?? ch);
}

const WORD = /[\p{L}\p{N}]/u;

/** Offsets of `needle` (folded) in `hay` (folded) where it stands as whole words. */
function wordHits(hay: string, needle: string, limit = MAX_MATCHES): number[] {
  const hits: number[] = [];
  if (!needle) return hits;
  for (let i = hay.indexOf(needle); i !== -1 && hits.length < limit; i = hay.indexOf(needle, i + 1)) {
    const before = i > 0 ? hay[i - 1] : "";
    const after = hay[i + needle.length] ?? "";
    if (!WORD.test(before) && !WORD.test(after)) hits.push(i);
  }
  return hits;
}

// One context for every regex run: creating a context per call costs milliseconds, running in one costs microseconds.
const sandbox = vm.createContext(Object.create(null) as object);
const collect = new vm.Script(
  `(() => { const out = []; re.lastIndex = 0; let m; while (out.length < max && (m = re.exec(text)) !== null) {
     out.push(m[1] ?? m[0]); if (m[0] === "") re.lastIndex++; } return out; })()`,
);

/** Every match of a rule's pattern (first group, else the whole match), in order, under the time bound. */
export function regexMatches(pattern: string, caseSensitive: boolean, text: string, timeoutMs = REGEX_TIME_LIMIT_MS): string[] {
  const ctx = sandbox as { re?: RegExp; text?: string; max?: number };
  ctx.re = new RegExp(pattern, caseSensitive ? "gu" : "giu");
  ctx.text = text;
  ctx.max = MAX_MATCHES;
  try {
    const out = collect.runInContext(sandbox, { timeout: timeoutMs }) as unknown[];
    return out.map((v) => String(v ?? ""));
  } finally {
    ctx.re = undefined;
    ctx.text = undefined;
  }
}

const NUMBER_RE = new RegExp(NUMBER, "u");

function byType(field: SchemaField, found: string[]): unknown {
  const texts = [...new Set(found.map((s) => squash(s).slice(0, MAX_VALUE_LENGTH)).filter(Boolean))];
  const enumOf = (s: string) => field.enum_values?.find((v) => fold(v) === fold(s)) ?? null;
  switch (field.type) {
    case "string":
      return texts[0] ?? null;
    case "string[]":
      return texts.length ? texts : null;
    case "boolean":
      return found.length ? true : null;
    case "integer":
    case "number": {
      for (const s of texts) {
        const token = NUMBER_RE.exec(s)?.[0];
        const n = token ? parseNumber(token) : null;
        if (n !== null) return field.type === "integer" ? Math.round(n) : n;
      }
      return null;
    }
    case "date": {
      for (const s of texts) {
        const d = /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : parseDate(s);
        if (d) return d;
      }
      return null;
    }
    case "enum":
      return texts.map(enumOf).find((v) => v !== null) ?? null;
    case "enum[]": {
      const vs = [...new Set(texts.map(enumOf).filter((v): v is string => v !== null))];
      return vs.length ? vs : null;
    }
  }
}

/** The text right after each whole-word occurrence of the cue (or the whole text when there is no cue). */
function windowsAfter(text: string, folded: string, cue: string | undefined, size: number): string[] {
  if (!cue) return [text];
  return wordHits(folded, fold(cue)).map((i) => text.slice(i + cue.length, i + cue.length + size));
}

/** Apply a field's rule to one judgment's text. */
export function applyFieldRule(text: string, field: SchemaField, rule: FieldRule, folded = fold(text)): RuleReading {
  switch (rule.kind) {
    case "regex":
      try {
        return { value: byType(field, regexMatches(rule.pattern, rule.case_sensitive, text)) };
      } catch (e) {
        // Errors from the other context are not instances of this context's Error: read the code as a plain property.
        const timedOut = typeof e === "object" && e !== null && (e as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
        return { value: null, problem: timedOut ? `the regular expression took longer than ${REGEX_TIME_LIMIT_MS} ms` : "the regular expression failed" };
      }
    case "keywords": {
      const found = rule.keywords.filter((k) => wordHits(folded, fold(k), 1).length > 0);
      return { value: byType(field, found) };
    }
    case "date": {
      for (const w of windowsAfter(text, folded, rule.cue, 200)) {
        const d = parseDate(w);
        if (d) return { value: d };
      }
      return { value: null };
    }
    case "number": {
      for (const w of windowsAfter(text, folded, rule.cue, 80)) {
        const token = NUMBER_RE.exec(w)?.[0];
        const n = token ? parseNumber(token) : null;
        if (n !== null) return { value: field.type === "integer" ? Math.round(n) : n };
      }
      return { value: null };
    }
  }
}
