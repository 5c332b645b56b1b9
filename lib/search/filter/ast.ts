/**
 * The abstract syntax tree of a search-engine filter expression (Meilisearch filter syntax, spec: Search and
 * documents). The parser (`parse.ts`) produces it after checking every attribute against the filterable list; the
 * LanceDB adapter compiles it to SQL (`to-sql.ts`) and the Meilisearch adapter prints it back normalised
 * (`to-meili.ts`). Adapters never see raw filter strings, so validation happens exactly once.
 */

/** A literal in a filter: quoted or bare strings, numbers, booleans (`true`/`false` bare words). */
export type FilterValue = string | number | boolean;

export type CompareOp = "=" | "!=" | ">" | ">=" | "<" | "<=";

export type FilterNode =
  | { type: "and"; children: FilterNode[] }
  | { type: "or"; children: FilterNode[] }
  | { type: "not"; child: FilterNode }
  | { type: "compare"; attribute: string; op: CompareOp; value: FilterValue }
  /** `attr from TO to`: inclusive on both ends (Meilisearch semantics). */
  | { type: "range"; attribute: string; from: FilterValue; to: FilterValue }
  /** `attr IN [..]` / `attr NOT IN [..]`. */
  | { type: "in"; attribute: string; values: FilterValue[]; negated: boolean }
  /** `attr EXISTS` / `attr NOT EXISTS`: key present in the document (null counts as present in Meilisearch). */
  | { type: "exists"; attribute: string; negated: boolean }
  /** `attr IS NULL` / `attr IS NOT NULL`. */
  | { type: "isNull"; attribute: string; negated: boolean }
  /** `attr IS EMPTY` / `attr IS NOT EMPTY`: "", [] or {}. */
  | { type: "isEmpty"; attribute: string; negated: boolean };

/** Attributes a node references (used to check against the filterable list and by adapters). */
export function filterAttributes(node: FilterNode, out: Set<string> = new Set()): Set<string> {
  switch (node.type) {
    case "and":
    case "or":
      for (const c of node.children) filterAttributes(c, out);
      break;
    case "not":
      filterAttributes(node.child, out);
      break;
    default:
      out.add(node.attribute);
  }
  return out;
}

/** Values in every IN / NOT IN list of a node: what the per-request cap (FILTER_MAX_TOTAL_VALUES) bounds. */
export function countListValues(node: FilterNode | undefined): number {
  if (!node) return 0;
  switch (node.type) {
    case "and":
    case "or":
      return node.children.reduce((n, c) => n + countListValues(c), 0);
    case "not":
      return countListValues(node.child);
    case "in":
      return node.values.length;
    default:
      return 0;
  }
}

/** Conjunction helper that drops `undefined` parts and flattens a single child. */
export function andAll(parts: Array<FilterNode | undefined>): FilterNode | undefined {
  const kept = parts.filter((p): p is FilterNode => p !== undefined);
  if (kept.length === 0) return undefined;
  if (kept.length === 1) return kept[0];
  return { type: "and", children: kept };
}
