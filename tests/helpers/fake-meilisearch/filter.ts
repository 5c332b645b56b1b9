/**
 * Filter syntax (documented: =, !=, >, >=, <, <=, TO, EXISTS, IS NULL, IS EMPTY, IN, NOT, AND, OR, parentheses),
 * parsed independently of the project's parser so the adapter's output is checked against the documented grammar.
 */
import { MeiliError, type Doc, type Json } from "./model";
import { normalizeWord } from "./text";

export type FNode =
  | { t: "and" | "or"; c: FNode[] }
  | { t: "not"; c: FNode }
  | { t: "cmp"; a: string; op: string; v: string }
  | { t: "to"; a: string; from: string; to: string }
  | { t: "in"; a: string; vs: string[] }
  | { t: "exists"; a: string }
  | { t: "null"; a: string }
  | { t: "empty"; a: string };

interface Tok {
  kind: "word" | "quoted" | "op" | "punct";
  text: string;
  pos: number;
}

function filterError(message: string): MeiliError {
  return new MeiliError(400, "invalid_search_filter", message);
}

function lexFilter(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "(" || ch === ")" || ch === "[" || ch === "]" || ch === ",") {
      out.push({ kind: "punct", text: ch, pos: i });
      i++;
      continue;
    }
    const op = /^(>=|<=|!=|=|>|<)/.exec(src.slice(i));
    if (op) {
      out.push({ kind: "op", text: op[1], pos: i });
      i += op[1].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = "";
      while (j < src.length && src[j] !== ch) {
        if (src[j] === "\\" && j + 1 < src.length) {
          text += src[j + 1];
          j += 2;
        } else text += src[j++];
      }
      if (j >= src.length) throw filterError(`Expression \`${src.slice(i)}\` is missing the following closing delimiter: \`${ch}\`.\n${i + 1}:${src.length} ${src}`);
      out.push({ kind: "quoted", text, pos: i });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s()[\],=!<>]/.test(src[j]) && src[j] !== '"' && src[j] !== "'") j++;
    if (j === i) throw filterError(`Found unexpected character \`${ch}\`.\n${i + 1}:${i + 2} ${src}`);
    out.push({ kind: "word", text: src.slice(i, j), pos: i });
    i = j;
  }
  return out;
}

export function parseFilterString(src: string): FNode {
  const toks = lexFilter(src);
  let p = 0;
  const peek = () => toks[p];
  const kw = (t: Tok | undefined, w: string) => t?.kind === "word" && t.text.toUpperCase() === w;
  const expectMsg = () =>
    `Was expecting an operation \`=\`, \`!=\`, \`>=\`, \`>\`, \`<=\`, \`<\`, \`IN\`, \`NOT IN\`, \`TO\`, \`EXISTS\`, \`NOT EXISTS\`, \`IS NULL\`, \`IS NOT NULL\`, \`IS EMPTY\`, \`IS NOT EMPTY\`, \`_geoRadius\`, or \`_geoBoundingBox\` at \`${src}\`.`;
  const value = (): string => {
    const t = toks[p];
    if (!t || (t.kind !== "word" && t.kind !== "quoted")) throw filterError(expectMsg());
    p++;
    return t.text;
  };
  const primary = (): FNode => {
    const t = peek();
    if (!t) throw filterError(expectMsg());
    if (t.kind === "punct" && t.text === "(") {
      p++;
      const inner = orExpr();
      if (!(peek()?.kind === "punct" && peek()?.text === ")")) throw filterError(`Expression \`${src}\` is missing the following closing delimiter: \`)\`.`);
      p++;
      return inner;
    }
    if (kw(t, "NOT")) {
      p++;
      return { t: "not", c: primary() };
    }
    const attr = value();
    const next = peek();
    if (next?.kind === "op") {
      p++;
      return { t: "cmp", a: attr, op: next.text, v: value() };
    }
    if (kw(next, "EXISTS")) {
      p++;
      return { t: "exists", a: attr };
    }
    if (kw(next, "IS")) {
      p++;
      const neg = kw(peek(), "NOT");
      if (neg) p++;
      let node: FNode;
      if (kw(peek(), "NULL")) node = { t: "null", a: attr };
      else if (kw(peek(), "EMPTY")) node = { t: "empty", a: attr };
      else throw filterError(expectMsg());
      p++;
      return neg ? { t: "not", c: node } : node;
    }
    if (kw(next, "NOT")) {
      p++;
      if (kw(peek(), "EXISTS")) {
        p++;
        return { t: "not", c: { t: "exists", a: attr } };
      }
      if (kw(peek(), "IN")) {
        p++;
        return { t: "not", c: { t: "in", a: attr, vs: list() } };
      }
      throw filterError(expectMsg());
    }
    if (kw(next, "IN")) {
      p++;
      return { t: "in", a: attr, vs: list() };
    }
    // `attr from TO to`
    if (next && (next.kind === "word" || next.kind === "quoted") && kw(toks[p + 1], "TO")) {
      const from = value();
      p++;
      return { t: "to", a: attr, from, to: value() };
    }
    throw filterError(expectMsg());
  };
  const list = (): string[] => {
    if (!(peek()?.kind === "punct" && peek()?.text === "[")) throw filterError(`Expected \`[\` after \`IN\` keyword.`);
    p++;
    const vs: string[] = [];
    while (!(peek()?.kind === "punct" && peek()?.text === "]")) {
      vs.push(value());
      if (peek()?.kind === "punct" && peek()?.text === ",") p++;
      else if (!(peek()?.kind === "punct" && peek()?.text === "]")) throw filterError(`Expected matching \`]\` after the list of values.`);
    }
    p++;
    return vs;
  };
  const andExpr = (): FNode => {
    const c = [primary()];
    while (kw(peek(), "AND")) {
      p++;
      c.push(primary());
    }
    return c.length === 1 ? c[0] : { t: "and", c };
  };
  const orExpr = (): FNode => {
    const c = [andExpr()];
    while (kw(peek(), "OR")) {
      p++;
      c.push(andExpr());
    }
    return c.length === 1 ? c[0] : { t: "or", c };
  };
  const node = orExpr();
  if (p < toks.length) throw filterError(`Found unexpected characters at the end of the filter: \`${src.slice(toks[p].pos)}\`. You probably forgot an \`OR\` or an \`AND\` rule.`);
  return node;
}

function filterAttrs(n: FNode, out: string[] = []): string[] {
  if (n.t === "not") filterAttrs(n.c, out);
  else if ("a" in n) out.push(n.a);
  else n.c.forEach((c) => filterAttrs(c, out));
  return out;
}

export function parseFilterParam(filter: unknown, filterable: string[]): FNode {
  let node: FNode;
  if (typeof filter === "string") node = parseFilterString(filter);
  else if (Array.isArray(filter)) {
    // Array form: outer array = AND, inner arrays = OR.
    node = {
      t: "and",
      c: filter.map((f) => (Array.isArray(f) ? { t: "or" as const, c: f.map((x) => parseFilterString(String(x))) } : parseFilterString(String(f)))),
    };
  } else throw filterError("Invalid value type at `.filter`: expected a string or an array");
  for (const a of filterAttrs(node)) {
    if (!filterable.includes(a)) {
      throw filterError(`Attribute \`${a}\` is not filterable. Available filterable attribute patterns are: \`${[...filterable].sort().join(", ")}\`.`);
    }
  }
  return node;
}

function valuesOf(d: Doc, a: string): Json[] {
  const v = d[a];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function eqValue(x: Json, v: string): boolean {
  if (typeof x === "number") return Number(v) === x && v.trim() !== "";
  if (typeof x === "boolean") return v.toLowerCase() === String(x);
  if (typeof x === "string") return normalizeWord(x) === normalizeWord(v);
  return false;
}

export function evalFilter(n: FNode, d: Doc): boolean {
  switch (n.t) {
    case "and":
      return n.c.every((c) => evalFilter(c, d));
    case "or":
      return n.c.some((c) => evalFilter(c, d));
    case "not":
      return !evalFilter(n.c, d);
    case "exists":
      return n.a in d;
    case "null":
      return d[n.a] === null;
    case "empty": {
      const v = d[n.a];
      return v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
    }
    case "in":
      return valuesOf(d, n.a).some((x) => n.vs.some((v) => eqValue(x, v)));
    case "to":
      return valuesOf(d, n.a).some((x) => typeof x === "number" && x >= Number(n.from) && x <= Number(n.to));
    case "cmp": {
      const vals = valuesOf(d, n.a);
      if (n.op === "=") return vals.some((x) => eqValue(x, n.v));
      if (n.op === "!=") return !vals.some((x) => eqValue(x, n.v));
      const target = Number(n.v);
      return vals.some((x) => {
        if (typeof x === "number" && !Number.isNaN(target)) {
          return n.op === ">" ? x > target : n.op === ">=" ? x >= target : n.op === "<" ? x < target : x <= target;
        }
        if (typeof x === "string") {
          const [a, b] = [x, n.v];
          return n.op === ">" ? a > b : n.op === ">=" ? a >= b : n.op === "<" ? a < b : a <= b;
        }
        return false;
      });
    }
  }
}

/** Exposed for the fake's own tests. */
export const __filterForTests = { parse: parseFilterString, evaluate: (src: string, d: Record<string, unknown>) => evalFilter(parseFilterString(src), d as Doc) };
