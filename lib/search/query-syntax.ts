/**
 * The search box's query language (docs/search.md "Query language"), parsed once for every entry point
 * (`/api/search/documents`, `/api/v1/documents/search`, the UI, which passes q through):
 *
 * - words; `"exact phrase"` (adjacent words, in order, no typos); `-word` and `-"phrase"` exclude documents;
 * - `a OR b` between words or quoted phrases (`"kitchen knife" OR machete`: either may match; `OR` in capitals);
 * - fields: `court:`, `judge:`, `case:` (words that must occur in the court name, the judges, the case number; a
 *   value with spaces is quoted, `court:"Apelacyjny w Poznaniu"`), `year:2015`, `year:2015..2019`,
 *   `jurisdiction:pl|uk`.
 *
 * What cannot be parsed (an unclosed quote, a dangling `-` or `OR`, a bad year or jurisdiction) degrades to plain words
 * and is reported in `warnings`; parsing never throws. The result's `q` is the engine query in the port's syntax
 * (types.ts `SearchDocumentsRequest.q`: words, quoted phrases, `-` exclusions, `OR`), which both adapters read; the
 * fields become a filter (year, jurisdiction: filterable attributes) and `fieldTerms` (court, judge, case: searchable
 * attributes the index cannot filter on). Pure: no I/O, no engine types.
 */
import { words } from "./text/tokenize";

import type { FieldTerm } from "./types";

type FieldTermAttribute = FieldTerm["attribute"];

export interface ParsedSearchQuery {
  /** The engine query: words, "phrases", -word, -"phrase", a OR b, "a b" OR c (empty when only fields were given). */
  q: string;
  fieldTerms: FieldTerm[];
  /** year: → inclusive UTC years. */
  years: { from: number; to: number } | null;
  /** jurisdiction: → the index's value. */
  jurisdiction: "PL" | "UK" | null;
  /** What was read as plain words instead, in the user's words (the response's `query_warnings`). */
  warnings: string[];
}

const FIELD_ATTRIBUTES: Record<string, FieldTermAttribute> = { court: "court_name", judge: "judges_flat", case: "case_number" };
const YEAR_MIN = 1900;
const YEAR_MAX = 2100;

interface Token {
  /** A word as typed (unquoted), or a phrase's inner text. */
  text: string;
  quoted: boolean;
  negated: boolean;
  /** field:value (value in text). */
  field: string | null;
}

/** Quote a phrase for the engine query (inner quotes cannot occur: the tokenizer ends a phrase at a quote). */
const quote = (ws: readonly string[]) => `"${ws.join(" ")}"`;

export function parseSearchQuery(input: string): ParsedSearchQuery {
  const warnings: string[] = [];
  // A query that is a provision never gets here: lib/backend/search.ts routes it to the citator's `cites` filter.
  const text = input;
  const out: ParsedSearchQuery = { q: "", fieldTerms: [], years: null, jurisdiction: null, warnings };
  const tokens = tokenize(text, warnings);
  // Words keep their spelling (the citation recogniser reads the raw query: "II AKa 516/19"); the rest is written in
  // the port's syntax.
  const parts: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.field !== null) {
      applyField(t, out, parts);
      continue;
    }
    if (!t.quoted && !t.negated && t.text === "OR") {
      const prev = parts.length > 0 ? parts[parts.length - 1] : null;
      const next = tokens[i + 1];
      const nextPart = next ? orOperand(next) : null;
      // What stands left of OR is already written: a quoted phrase, or a single word as typed.
      const prevOk = prev !== null && prev !== "OR" && !prev.startsWith("-") && (prev.startsWith('"') || words(prev).length === 1);
      if (prevOk && nextPart !== null) {
        parts.push("OR", nextPart);
        i++;
      } else {
        warnings.push("OR needs a word or a quoted phrase on each side; it was ignored");
      }
      continue;
    }
    const ws = words(t.text);
    if (ws.length === 0) continue;
    if (t.quoted) parts.push((t.negated ? "-" : "") + quote(ws));
    else if (t.negated) parts.push("-" + (ws.length > 1 ? quote(ws) : ws[0]));
    else parts.push(t.text);
  }
  out.q = parts.join(" ");
  return out;
}

/**
 * A token as the right side of OR, in the port's syntax: a single word as typed, or a quoted phrase (null for anything
 * else: a field, an exclusion, OR itself, several words).
 */
function orOperand(t: Token): string | null {
  if (t.field !== null || t.negated) return null;
  const ws = words(t.text);
  if (t.quoted) return ws.length > 0 ? quote(ws) : null;
  return t.text !== "OR" && ws.length === 1 ? t.text : null;
}

function applyField(t: Token, out: ParsedSearchQuery, parts: string[]): void {
  const name = t.field as string;
  const value = t.text.trim();
  const plain = () => {
    if (words(value).length > 0) parts.push(value);
  };
  if (name in FIELD_ATTRIBUTES) {
    const ws = words(value);
    if (ws.length === 0) {
      out.warnings.push(`${name}: needs a value; it was ignored`);
      return;
    }
    if (t.negated) {
      out.warnings.push(`-${name}: is not supported; the words were searched instead`);
      parts.push(value);
      return;
    }
    out.fieldTerms.push({ attribute: FIELD_ATTRIBUTES[name], words: ws });
    return;
  }
  if (name === "year") {
    const m = /^(\d{4})(?:\.\.(\d{4}))?$/.exec(value);
    const from = m ? Number(m[1]) : NaN;
    const to = m ? Number(m[2] ?? m[1]) : NaN;
    if (!m || t.negated || from < YEAR_MIN || to > YEAR_MAX || from > to) {
      out.warnings.push(`year:${value} is not a year or a range like 2015..2019; it was searched as words`);
      plain();
      return;
    }
    out.years = out.years ? { from: Math.max(out.years.from, from), to: Math.min(out.years.to, to) } : { from, to };
    return;
  }
  // jurisdiction
  const j = value.toLowerCase();
  if (t.negated || (j !== "pl" && j !== "uk")) {
    out.warnings.push(`jurisdiction:${value} is not pl or uk; it was searched as words`);
    plain();
    return;
  }
  out.jurisdiction = j === "pl" ? "PL" : "UK";
}

const FIELD_RE = /^(-?)(court|judge|case|year|jurisdiction):/i;

/** Whitespace-separated tokens; quotes group; an unclosed quote or a dangling `-` degrade with a warning. */
function tokenize(s: string, warnings: string[]): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = s.length;
  const isSpace = (c: string) => /\s/.test(c);
  while (i < n) {
    while (i < n && isSpace(s[i])) i++;
    if (i >= n) break;
    let negated = false;
    let field: string | null = null;
    const rest = s.slice(i);
    const fm = FIELD_RE.exec(rest);
    if (fm) {
      negated = fm[1] === "-";
      field = fm[2].toLowerCase();
      i += fm[0].length;
    } else if (s[i] === "-") {
      negated = true;
      i++;
      if (i >= n || isSpace(s[i])) {
        warnings.push("A '-' must be followed by a word or a quoted phrase; it was ignored");
        continue;
      }
    }
    if (s[i] === '"') {
      const close = s.indexOf('"', i + 1);
      if (close < 0) {
        warnings.push("Unclosed quote: the words after it were searched as plain words");
        const inner = s.slice(i + 1);
        // Degrade: the rest as plain words (a field or exclusion in it is not read).
        if (field !== null) out.push({ text: inner, quoted: false, negated, field });
        else for (const w of inner.split(/\s+/).filter(Boolean)) out.push({ text: w, quoted: false, negated: false, field: null });
        break;
      }
      out.push({ text: s.slice(i + 1, close), quoted: true, negated, field });
      i = close + 1;
      continue;
    }
    let j = i;
    while (j < n && !isSpace(s[j]) && s[j] !== '"') j++;
    const text = s.slice(i, j);
    i = j;
    if (text === "" && field !== null) {
      out.push({ text: "", quoted: false, negated, field });
      continue;
    }
    out.push({ text, quoted: false, negated, field });
  }
  return out;
}
