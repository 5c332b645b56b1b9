/**
 * fast-check generators of random valid BaseSchemaFilters over the registry's filterable keys, with values drawn from
 * a corpus slice so that they select something (plus values that select nothing). Shared by the SQL-vs-TypeScript
 * test (structured-filter) and the engine-vs-SQL parity test (structured-engine-parity).
 */
import fc from "fast-check";
import type { FilterFieldSpec } from "@/lib/schema/filter-fields";
import type { Row } from "./structured-eval";

export type Filters = Record<string, unknown>;

export interface FiltersArbOptions {
  /** The keys a filter may name. */
  specs: FilterFieldSpec[];
  /** At most this many keys per filter. */
  maxKeys: number;
  /** Which observed strings an enum/tag list may draw from (all by default). */
  strings?: (observed: string[]) => string[];
}

function observed(rows: Row[], spec: FilterFieldSpec): unknown[] {
  const out = new Set<unknown>();
  for (const r of rows) {
    const v = r[spec.column];
    if (Array.isArray(v)) v.forEach((e) => out.add(e));
    else if (v !== null && v !== undefined) out.add(v);
  }
  return [...out].sort();
}

function valueArb(rows: Row[], spec: FilterFieldSpec, strings: (xs: string[]) => string[]): fc.Arbitrary<unknown> {
  const seen = observed(rows, spec);
  const pick = <T,>(xs: T[]) => (xs.length ? fc.constantFrom(...xs) : fc.constant(undefined as unknown as T));
  switch (spec.control) {
    case "enum_multi":
    case "tag_array": {
      // A patterned key (cites) draws well-formed values only, plus one that no judgment holds (PL/kk/9999).
      const absent = spec.valuePattern ? "PL/kk/9999" : "no-such-value-\u0105";
      // Spread over the sorted values (cites: judgment ids sort before PL/ and UK/ provisions), not the first 40.
      const all = strings(seen as string[]);
      const step = spec.valuePattern ? Math.max(1, Math.floor(all.length / 40)) : 1;
      const pool = spec.enumValues ?? [...all.filter((_, i) => i % step === 0).slice(0, 40), absent];
      return fc.uniqueArray(fc.constantFrom(...pool), { minLength: 0, maxLength: 3 });
    }
    case "boolean_tri":
      return fc.boolean();
    case "numeric_range": {
      const nums = (seen as number[]).length ? (seen as number[]) : [0];
      const bound = fc.option(fc.constantFrom(...nums), { nil: undefined });
      return fc.oneof(fc.constantFrom(...nums), fc.record({ min: bound, max: bound }, { requiredKeys: [] }));
    }
    case "date_range": {
      const dates = (seen as string[]).length ? (seen as string[]) : ["2010-01-01"];
      const bound = fc.option(fc.constantFrom(...dates), { nil: undefined });
      return fc.oneof(
        fc.constantFrom(...dates),
        fc.record({ from: bound, to: bound }, { requiredKeys: [] }),
        fc.record({ min: bound, max: bound }, { requiredKeys: [] }),
      );
    }
    case "substring": {
      const texts = (seen as string[]).slice(0, 60);
      const slice = pick(texts).chain((t) =>
        t === undefined
          ? fc.constant("x")
          : fc
              .tuple(fc.nat(t.length), fc.integer({ min: 1, max: 6 }), fc.boolean())
              .map(([i, n, upper]) => (upper ? t.slice(i, i + n).toUpperCase() : t.slice(i, i + n))),
      );
      return fc.oneof(slice, fc.constantFrom("  ", "%", "_", "a_b", "100%"));
    }
    case "uuid_membership":
      return fc.constant([]);
  }
}

/** JSON has no undefined: drop absent optional bounds as JSON.stringify would. */
const plain = (f: Filters): Filters => JSON.parse(JSON.stringify(f)) as Filters;

/** Pick up to `maxKeys` keys first, then a value for each (a record over all 46 keys would rarely be small). */
export function filtersArb(rows: Row[], { specs, maxKeys, strings = (xs) => xs }: FiltersArbOptions): fc.Arbitrary<Filters> {
  const values = new Map(specs.map((s) => [s.key, valueArb(rows, s, strings)]));
  return fc
    .uniqueArray(fc.constantFrom(...specs.map((s) => s.key)), { minLength: 0, maxLength: maxKeys })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, values.get(k)!]))))
    .map(plain);
}
