/**
 * Evaluates a `FilterNode` against an in-memory document with Meilisearch semantics (used by the LanceDB adapter's
 * in-process keyword index, and as the reference in tests):
 * - `=` on an array means "some element equals"; string equality is case-insensitive (Meilisearch lower-cases facet
 *   values); a number matches a numeric value or its string form; booleans match booleans or "true"/"false".
 * - `!=` is NOT `=` (so a missing or null value is "not equal").
 * - `>`/`>=`/`<`/`<=`/`TO` compare numbers numerically and strings lexicographically (ISO dates work); mixed → false.
 * - EXISTS: key present (null counts); IS NULL: value is null; IS EMPTY: "", [] or {}.
 * `compileFilter` turns the AST into a closure once per query so evaluation is cheap per document; an IN list is
 * compiled once into Sets (lower-cased strings, numbers, booleans), so its cost per document does not grow with the
 * number of values (security review H1).
 */
import type { FilterNode, FilterValue } from "./ast";

export type FilterDoc = Record<string, unknown>;
export type Predicate = (doc: FilterDoc) => boolean;

/**
 * Lower-cased document strings, remembered: lower-casing a long Polish offence description costs about a microsecond,
 * and the same stored strings are compared by every query, while a Map lookup of a string V8 has already hashed is a
 * few nanoseconds. Keys are document values (never request input: filter values are lower-cased once per query), and
 * the map is dropped when it grows past LOWER_CACHE_MAX so it cannot grow without bound.
 */
const LOWER_CACHE_MAX = 200_000;
let lowerCache = new Map<string, string>();

function lower(s: string): string {
  let l = lowerCache.get(s);
  if (l === undefined) {
    if (lowerCache.size >= LOWER_CACHE_MAX) lowerCache = new Map();
    l = s.toLowerCase();
    lowerCache.set(s, l);
  }
  return l;
}

function cmp(docValue: unknown, v: FilterValue): number | null {
  if (typeof docValue === "number") {
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    return Number.isNaN(n) ? null : docValue - n;
  }
  if (typeof docValue === "string" && typeof v === "string") return docValue < v ? -1 : docValue > v ? 1 : 0;
  return null;
}

function anyCmp(docValue: unknown, v: FilterValue, ok: (c: number) => boolean): boolean {
  const values = Array.isArray(docValue) ? docValue : [docValue];
  return values.some((e) => {
    const c = cmp(e, v);
    return c !== null && ok(c);
  });
}

/**
 * `IN [values]` (and `=`, a list of one) as one membership test with Meilisearch's equality for any of the values:
 * strings compare lower-cased (a number or boolean value matches its string form), a number matches a number or a
 * numeric string, a boolean matches a boolean or "true"/"false" in any case; an array matches when an element does.
 */
function compileIn(values: readonly FilterValue[]): (docValue: unknown) => boolean {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const booleans = new Set<boolean>();
  for (const v of values) {
    strings.add(String(v).toLowerCase());
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (!Number.isNaN(n)) numbers.add(n);
    if (typeof v === "boolean") booleans.add(v);
    else if (typeof v === "string") {
      const lower = v.toLowerCase();
      if (lower === "true") booleans.add(true);
      else if (lower === "false") booleans.add(false);
    }
  }
  // Per list, each distinct document string's answer: one lookup of an already-hashed string per element. Keys are
  // stored document values, so the map is bounded by the corpus's vocabulary and dropped with the compiled filter.
  const answers = new Map<string, boolean>();
  const scalar = (x: unknown): boolean => {
    if (typeof x === "string") {
      let hit = answers.get(x);
      if (hit === undefined) {
        hit = strings.has(lower(x));
        answers.set(x, hit);
      }
      return hit;
    }
    if (typeof x === "number") return numbers.has(x);
    if (typeof x === "boolean") return booleans.has(x);
    return false;
  };
  return (docValue) => (Array.isArray(docValue) ? docValue.some(scalar) : scalar(docValue));
}

/**
 * OR-ed `attr = v` children on one attribute as one `attr IN [v…]` (the same semantics, `compileIn` says why): a chain
 * of equalities then costs one set lookup per document instead of one comparison per value.
 */
function mergeEqualities(children: readonly FilterNode[]): FilterNode[] {
  const values = new Map<string, FilterValue[]>();
  const out: FilterNode[] = [];
  for (const c of children) {
    if (c.type === "compare" && c.op === "=") {
      const list = values.get(c.attribute);
      if (list) {
        list.push(c.value);
        continue;
      }
      const fresh = [c.value];
      values.set(c.attribute, fresh);
      out.push({ type: "in", attribute: c.attribute, values: fresh, negated: false });
    } else out.push(c);
  }
  return out;
}

export function compileFilter(node: FilterNode): Predicate {
  switch (node.type) {
    case "and": {
      const parts = node.children.map(compileFilter);
      return (d) => parts.every((p) => p(d));
    }
    case "or": {
      const parts = mergeEqualities(node.children).map(compileFilter);
      return (d) => parts.some((p) => p(d));
    }
    case "not": {
      const inner = compileFilter(node.child);
      return (d) => !inner(d);
    }
    case "compare": {
      const { attribute: a, value: v } = node;
      switch (node.op) {
        case "=": {
          // One value is a one-element list: its lower-cased form is made once here, not once per document.
          const member = compileIn([v]);
          return (d) => member(d[a]);
        }
        case "!=": {
          const member = compileIn([v]);
          return (d) => !member(d[a]);
        }
        case ">":
          return (d) => anyCmp(d[a], v, (c) => c > 0);
        case ">=":
          return (d) => anyCmp(d[a], v, (c) => c >= 0);
        case "<":
          return (d) => anyCmp(d[a], v, (c) => c < 0);
        case "<=":
          return (d) => anyCmp(d[a], v, (c) => c <= 0);
      }
      break;
    }
    case "range": {
      const { attribute: a, from, to } = node;
      return (d) => {
        const values = Array.isArray(d[a]) ? (d[a] as unknown[]) : [d[a]];
        return values.some((e) => {
          const lo = cmp(e, from);
          const hi = cmp(e, to);
          return lo !== null && hi !== null && lo >= 0 && hi <= 0;
        });
      };
    }
    case "in": {
      const { attribute: a, negated } = node;
      const member = compileIn(node.values);
      return (d) => member(d[a]) !== negated;
    }
    case "exists": {
      const { attribute: a, negated } = node;
      return (d) => Object.prototype.hasOwnProperty.call(d, a) !== negated;
    }
    case "isNull": {
      const { attribute: a, negated } = node;
      return (d) => (d[a] === null) !== negated;
    }
    case "isEmpty": {
      const { attribute: a, negated } = node;
      return (d) => {
        const x = d[a];
        const empty =
          x === "" ||
          (Array.isArray(x) && x.length === 0) ||
          (x !== null && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 0);
        return empty !== negated;
      };
    }
  }
  throw new Error("unreachable filter node");
}
