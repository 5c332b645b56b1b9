/**
 * Parser of the search-engine filter syntax (Meilisearch's, spec: Search and documents) into a `FilterNode`.
 *
 *   expr      := or
 *   or        := and ("OR" and)*
 *   and       := unary ("AND" unary)*
 *   unary     := "NOT" unary | "(" expr ")" | condition
 *   condition := attr op value | attr value "TO" value | attr ["NOT"] "IN" "[" value ("," value)* [","] "]"
 *              | attr ["NOT"] "EXISTS" | attr "IS" ["NOT"] ("NULL" | "EMPTY")
 *   value     := 'single' | "double" (backslash escapes the quote and itself) | bare word
 *
 * Keywords are case-insensitive. A bare word that is a number becomes a number, `true`/`false` a boolean, anything
 * else a string; quoted values are always strings. Every attribute is checked against the allowlist (unknown →
 * `FilterAttributeError` naming it); malformed input → `FilterSyntaxError` with the 0-based position. Input length,
 * nesting depth, values per list and values over all lists are bounded so hostile input cannot exhaust the stack or
 * CPU (security review H1: the service passes FILTER_MAX_LIST_VALUES / FILTER_MAX_TOTAL_VALUES, see index.ts).
 */
import { FilterAttributeError, FilterSyntaxError } from "../errors";
import type { CompareOp, FilterNode, FilterValue } from "./ast";

/** Too many IN values (per list or over the expression): a syntax-level refusal that also names the list's attribute. */
export class FilterCapError extends FilterSyntaxError {
  readonly attribute: string;
  constructor(message: string, position: number, attribute: string) {
    super(message, position);
    this.name = "FilterCapError";
    this.attribute = attribute;
  }
}

export const MAX_FILTER_LENGTH = 8192;
export const MAX_FILTER_DEPTH = 32;
export const MAX_IN_VALUES = 1000;
export const MAX_CONDITIONS = 1000;

type TokKind = "word" | "string" | "op" | "(" | ")" | "[" | "]" | "," | "eof";

interface Token {
  kind: TokKind;
  text: string;
  pos: number;
}

const OPS = ["!=", ">=", "<=", "=", ">", "<"] as const;
const SPECIAL = new Set([..."()[],=!<>'\""]);

function isSpace(ch: string): boolean {
  return /\s/u.test(ch);
}

function lex(input: string): Token[] {
  const toks: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (ch === "(" || ch === ")" || ch === "[" || ch === "]" || ch === ",") {
      toks.push({ kind: ch, text: ch, pos: i });
      i++;
      continue;
    }
    const op = OPS.find((o) => input.startsWith(o, i));
    if (op) {
      toks.push({ kind: "op", text: op, pos: i });
      i += op.length;
      continue;
    }
    if (ch === "!") throw new FilterSyntaxError("Expected `!=`", i);
    if (ch === "'" || ch === '"') {
      const start = i;
      let out = "";
      i++;
      for (;;) {
        if (i >= input.length) throw new FilterSyntaxError("Unterminated quoted string", start);
        const c = input[i];
        if (c === "\\" && i + 1 < input.length && (input[i + 1] === ch || input[i + 1] === "\\")) {
          out += input[i + 1];
          i += 2;
          continue;
        }
        if (c === ch) {
          i++;
          break;
        }
        out += c;
        i++;
      }
      toks.push({ kind: "string", text: out, pos: start });
      continue;
    }
    const start = i;
    while (i < input.length && !isSpace(input[i]) && !SPECIAL.has(input[i])) i++;
    toks.push({ kind: "word", text: input.slice(start, i), pos: start });
  }
  toks.push({ kind: "eof", text: "", pos: input.length });
  return toks;
}

const KEYWORDS = new Set(["AND", "OR", "NOT", "IN", "TO", "EXISTS", "IS", "NULL", "EMPTY"]);
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export interface ParseOptions {
  /** Attributes allowed in the filter; default: no check. */
  filterable?: readonly string[];
  /** Values allowed in one IN list; default MAX_IN_VALUES. */
  maxListValues?: number;
  /** Values allowed over every IN list of the expression together; default unbounded. */
  maxTotalValues?: number;
  /**
   * Conditions (comparisons, ranges, IN lists, EXISTS/IS tests) allowed in the expression; default MAX_CONDITIONS.
   * Each costs a test per document when a filter is evaluated in process, so a chain of hundreds of `a = "x" OR …`
   * would be as costly as the IN list the list caps bound.
   */
  maxConditions?: number;
}

class Parser {
  private i = 0;
  private readonly allowed: Set<string> | undefined;
  private readonly maxList: number;
  private readonly maxTotal: number;
  private readonly maxConditions: number;
  /** IN values read so far over every list. */
  private total = 0;
  /** Conditions read so far. */
  private conditions = 0;

  constructor(
    private readonly toks: Token[],
    options: ParseOptions,
  ) {
    this.allowed = options.filterable ? new Set(options.filterable) : undefined;
    this.maxList = options.maxListValues ?? MAX_IN_VALUES;
    this.maxTotal = options.maxTotalValues ?? Number.POSITIVE_INFINITY;
    this.maxConditions = options.maxConditions ?? MAX_CONDITIONS;
  }

  private peek(offset = 0): Token {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }

  private isKw(t: Token, kw: string): boolean {
    return t.kind === "word" && t.text.toUpperCase() === kw;
  }

  private expectKw(kw: string): Token {
    const t = this.next();
    if (!this.isKw(t, kw)) throw new FilterSyntaxError(`Expected \`${kw}\`${found(t)}`, t.pos);
    return t;
  }

  parseAll(): FilterNode {
    const node = this.or(0);
    const t = this.peek();
    if (t.kind !== "eof") throw new FilterSyntaxError(`Unexpected ${describe(t)}`, t.pos);
    return node;
  }

  private or(depth: number): FilterNode {
    const parts = [this.and(depth)];
    while (this.isKw(this.peek(), "OR")) {
      this.next();
      parts.push(this.and(depth));
    }
    return parts.length === 1 ? parts[0] : { type: "or", children: parts };
  }

  private and(depth: number): FilterNode {
    const parts = [this.unary(depth)];
    while (this.isKw(this.peek(), "AND")) {
      this.next();
      parts.push(this.unary(depth));
    }
    return parts.length === 1 ? parts[0] : { type: "and", children: parts };
  }

  private unary(depth: number): FilterNode {
    const t = this.peek();
    if (depth >= MAX_FILTER_DEPTH) throw new FilterSyntaxError("Filter nested too deeply", t.pos);
    if (this.isKw(t, "NOT")) {
      this.next();
      return { type: "not", child: this.unary(depth + 1) };
    }
    if (t.kind === "(") {
      this.next();
      const inner = this.or(depth + 1);
      const close = this.next();
      if (close.kind !== ")") throw new FilterSyntaxError(`Expected \`)\`${found(close)}`, close.pos);
      return inner;
    }
    return this.condition();
  }

  private attribute(): string {
    const t = this.next();
    if (t.kind === "eof") throw new FilterSyntaxError("Expected an attribute, found the end of the filter", t.pos);
    if ((t.kind !== "word" && t.kind !== "string") || (t.kind === "word" && KEYWORDS.has(t.text.toUpperCase()))) {
      throw new FilterSyntaxError(`Expected an attribute${found(t)}`, t.pos);
    }
    if (this.allowed && !this.allowed.has(t.text)) throw new FilterAttributeError(t.text, t.pos);
    return t.text;
  }

  private value(): FilterValue {
    const t = this.next();
    if (t.kind === "string") return t.text;
    if (t.kind === "word" && !KEYWORDS.has(t.text.toUpperCase())) {
      if (NUMBER_RE.test(t.text)) {
        const n = Number(t.text);
        if (Number.isFinite(n)) return n;
      }
      if (t.text === "true") return true;
      if (t.text === "false") return false;
      return t.text;
    }
    throw new FilterSyntaxError(`Expected a value${found(t)}`, t.pos);
  }

  private list(attribute: string): FilterValue[] {
    const open = this.next();
    if (open.kind !== "[") throw new FilterSyntaxError(`Expected \`[\`${found(open)}`, open.pos);
    const values: FilterValue[] = [];
    if (this.peek().kind === "]") {
      this.next();
      return values;
    }
    for (;;) {
      if (values.length >= this.maxList) {
        throw new FilterCapError(`Too many values in one IN list (at most ${this.maxList})`, this.peek().pos, attribute);
      }
      if (this.total >= this.maxTotal) {
        throw new FilterCapError(`Too many IN values in the filter (at most ${this.maxTotal} in all)`, this.peek().pos, attribute);
      }
      values.push(this.value());
      this.total++;
      const sep = this.next();
      if (sep.kind === "]") return values;
      if (sep.kind !== ",") throw new FilterSyntaxError(`Expected \`,\` or \`]\`${found(sep)}`, sep.pos);
      if (this.peek().kind === "]") {
        this.next();
        return values;
      }
    }
  }

  private condition(): FilterNode {
    const start = this.peek();
    const attribute = this.attribute();
    if (++this.conditions > this.maxConditions) {
      throw new FilterCapError(`Too many conditions in the filter (at most ${this.maxConditions})`, start.pos, attribute);
    }
    const t = this.peek();
    if (t.kind === "op") {
      this.next();
      return { type: "compare", attribute, op: t.text as CompareOp, value: this.value() };
    }
    if (this.isKw(t, "IN")) {
      this.next();
      return { type: "in", attribute, values: this.list(attribute), negated: false };
    }
    if (this.isKw(t, "EXISTS")) {
      this.next();
      return { type: "exists", attribute, negated: false };
    }
    if (this.isKw(t, "NOT")) {
      this.next();
      const k = this.next();
      if (this.isKw(k, "IN")) return { type: "in", attribute, values: this.list(attribute), negated: true };
      if (this.isKw(k, "EXISTS")) return { type: "exists", attribute, negated: true };
      throw new FilterSyntaxError(`Expected \`IN\` or \`EXISTS\` after \`NOT\`${found(k)}`, k.pos);
    }
    if (this.isKw(t, "IS")) {
      this.next();
      let negated = false;
      if (this.isKw(this.peek(), "NOT")) {
        this.next();
        negated = true;
      }
      const k = this.next();
      if (this.isKw(k, "NULL")) return { type: "isNull", attribute, negated };
      if (this.isKw(k, "EMPTY")) return { type: "isEmpty", attribute, negated };
      throw new FilterSyntaxError(`Expected \`NULL\` or \`EMPTY\`${found(k)}`, k.pos);
    }
    if (t.kind === "word" || t.kind === "string") {
      if (t.kind === "word" && KEYWORDS.has(t.text.toUpperCase())) {
        throw new FilterSyntaxError(`Unexpected ${describe(t)} after attribute \`${attribute}\``, t.pos);
      }
      const from = this.value();
      this.expectKw("TO");
      const to = this.value();
      return { type: "range", attribute, from, to };
    }
    throw new FilterSyntaxError(
      `Expected an operator (=, !=, >, >=, <, <=, IN, NOT IN, TO, EXISTS, NOT EXISTS, IS NULL, IS EMPTY) after attribute \`${attribute}\`${found(t)}`,
      t.pos,
    );
  }
}

function describe(t: Token): string {
  if (t.kind === "eof") return "end of the filter";
  if (t.kind === "string") return "quoted string";
  return `\`${t.text.slice(0, 40)}\``;
}

function found(t: Token): string {
  return `, found ${describe(t)}`;
}

/**
 * Parse a filter expression. Empty or blank input → `undefined` (no filter).
 * Throws `FilterSyntaxError` (with position) or `FilterAttributeError` (naming the attribute).
 */
export function parseFilter(input: string, options: ParseOptions = {}): FilterNode | undefined {
  if (input.length > MAX_FILTER_LENGTH) {
    throw new FilterSyntaxError(`Filter longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  }
  if (input.trim() === "") return undefined;
  return new Parser(lex(input), options).parseAll();
}
