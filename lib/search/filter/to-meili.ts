/**
 * Prints a `FilterNode` back as a canonical Meilisearch filter string (what the Meilisearch adapter sends):
 * upper-case keywords, every value double-quoted (Meilisearch compares numbers given as strings numerically when
 * the attribute is numeric, and `true`/`false` as strings), explicit parentheses around every compound.
 * Parse → print → parse is the identity on the AST up to value types (tested).
 */
import type { FilterNode, FilterValue } from "./ast";

function quote(v: FilterValue): string {
  const s = typeof v === "string" ? v : String(v);
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function attr(name: string): string {
  // Attributes come from the allowlist (identifier-like); quote defensively if not.
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : quote(name);
}

export function toMeiliFilter(node: FilterNode): string {
  switch (node.type) {
    case "and":
      return node.children.map((c) => `(${toMeiliFilter(c)})`).join(" AND ");
    case "or":
      return node.children.map((c) => `(${toMeiliFilter(c)})`).join(" OR ");
    case "not":
      return `NOT (${toMeiliFilter(node.child)})`;
    case "compare":
      return `${attr(node.attribute)} ${node.op} ${quote(node.value)}`;
    case "range":
      return `${attr(node.attribute)} ${quote(node.from)} TO ${quote(node.to)}`;
    case "in":
      return `${attr(node.attribute)} ${node.negated ? "NOT IN" : "IN"} [${node.values.map(quote).join(", ")}]`;
    case "exists":
      return `${attr(node.attribute)} ${node.negated ? "NOT EXISTS" : "EXISTS"}`;
    case "isNull":
      return `${attr(node.attribute)} ${node.negated ? "IS NOT NULL" : "IS NULL"}`;
    case "isEmpty":
      return `${attr(node.attribute)} ${node.negated ? "IS NOT EMPTY" : "IS EMPTY"}`;
  }
}
