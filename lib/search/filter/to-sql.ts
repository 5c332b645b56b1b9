/**
 * Compiles a `FilterNode` to a LanceDB (DataFusion SQL) `where` clause, safely:
 * - identifiers come only from the caller's column map (attribute → column kind); anything else throws, and
 *   names are re-checked against /^[a-z_][a-z0-9_]*$/ before being emitted;
 * - every literal is a single-quoted string with quotes doubled and control characters rejected, or a finite
 *   number printed by JS, or TRUE/FALSE;
 * - every atom is wrapped in `coalesce(…, false)` so NOT/!= follow Meilisearch semantics (a NULL value is "not
 *   equal") instead of SQL's three-valued logic.
 * Semantics follow Meilisearch: `=` on a list column means "contains"; scalar text equality is case-insensitive
 * (lower() on both sides); list membership is exact (DataFusion has no per-element lower()). EXISTS is TRUE for
 * declared columns (the document always carries filterable keys, null when empty: see IndexDocument).
 */
import type { FilterNode, FilterValue } from "./ast";

export type SqlColumnKind = "text" | "text[]" | "number" | "boolean";

const IDENT_RE = /^[a-z_][a-z0-9_]*$/;

function ident(name: string, columns: ReadonlyMap<string, SqlColumnKind>): { col: string; kind: SqlColumnKind } {
  const kind = columns.get(name);
  if (!kind || !IDENT_RE.test(name)) throw new Error(`attribute not filterable: ${name}`);
  return { col: `\`${name}\``, kind };
}

export function sqlString(s: string): string {
  // NUL and other C0 controls have no business in a filter value and could confuse the SQL lexer.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s)) throw new Error("control character in filter value");
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error("non-finite number in filter");
  return String(n);
}

/** The value as a number when the column is numeric; null when it cannot match (Meilisearch: no match). */
function asNumber(v: FilterValue): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function asText(v: FilterValue): string {
  return typeof v === "string" ? v : String(v);
}

function asBool(v: FilterValue): boolean | null {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return null;
}

function wrap(expr: string): string {
  return `coalesce(${expr}, false)`;
}

function equals(col: string, kind: SqlColumnKind, v: FilterValue): string {
  switch (kind) {
    case "number": {
      const n = asNumber(v);
      return n === null ? "false" : wrap(`${col} = ${sqlNumber(n)}`);
    }
    case "boolean": {
      const b = asBool(v);
      return b === null ? "false" : wrap(`${col} = ${b ? "true" : "false"}`);
    }
    case "text":
      return wrap(`lower(${col}) = lower(${sqlString(asText(v))})`);
    case "text[]":
      return wrap(`array_has(${col}, ${sqlString(asText(v))})`);
  }
}

function compare(col: string, kind: SqlColumnKind, op: ">" | ">=" | "<" | "<=", v: FilterValue): string {
  if (kind === "number") {
    const n = asNumber(v);
    return n === null ? "false" : wrap(`${col} ${op} ${sqlNumber(n)}`);
  }
  if (kind === "text") return wrap(`${col} ${op} ${sqlString(asText(v))}`);
  return "false";
}

export function toLanceSql(node: FilterNode, columns: ReadonlyMap<string, SqlColumnKind>): string {
  switch (node.type) {
    case "and":
      return node.children.map((c) => `(${toLanceSql(c, columns)})`).join(" AND ");
    case "or":
      return node.children.map((c) => `(${toLanceSql(c, columns)})`).join(" OR ");
    case "not":
      return `NOT (${toLanceSql(node.child, columns)})`;
    case "compare": {
      const { col, kind } = ident(node.attribute, columns);
      if (node.op === "=") return equals(col, kind, node.value);
      if (node.op === "!=") return `NOT (${equals(col, kind, node.value)})`;
      return compare(col, kind, node.op, node.value);
    }
    case "range": {
      const { col, kind } = ident(node.attribute, columns);
      return `(${compare(col, kind, ">=", node.from)}) AND (${compare(col, kind, "<=", node.to)})`;
    }
    case "in": {
      const { col, kind } = ident(node.attribute, columns);
      const any = node.values.length === 0 ? "false" : node.values.map((v) => `(${equals(col, kind, v)})`).join(" OR ");
      return node.negated ? `NOT (${any})` : any;
    }
    case "exists":
      ident(node.attribute, columns);
      return node.negated ? "false" : "true";
    case "isNull": {
      const { col } = ident(node.attribute, columns);
      return node.negated ? `${col} IS NOT NULL` : `${col} IS NULL`;
    }
    case "isEmpty": {
      const { col, kind } = ident(node.attribute, columns);
      const empty =
        kind === "text[]" ? wrap(`array_length(${col}) = 0`) : kind === "text" ? wrap(`${col} = ''`) : "false";
      return node.negated ? `NOT (${empty})` : empty;
    }
  }
}
