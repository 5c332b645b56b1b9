/**
 * Lookups over the field registry (lib/schema/fields.ts). Everything that needs to know about base-schema fields
 * (SQL allowlists, zod filter schemas, the filter drawer, search-engine settings) asks here rather than keeping a list.
 */
import {
  BASE_FIELDS,
  CORE_FILTER_KEYS,
  GROUPS,
  OPERATIONAL_FIELDS,
  type FieldDef,
} from "./fields";
import { SENTENCE_FIELDS } from "./sentence-fields";

export * from "./fields";
export { SENTENCE_FIELDS, SENTENCE_KIND_OPTIONS, CURRENCY_OPTIONS } from "./sentence-fields";

/** The typed columns extraction fills: the 51 base fields and the 15 sentence numbers. */
export const EXTRACTED_FIELDS: readonly FieldDef[] = [...BASE_FIELDS, ...SENTENCE_FIELDS];

/** The 51 base fields, the 15 sentence numbers and the 3 operational entries. */
export const ALL_FIELDS: readonly FieldDef[] = [...EXTRACTED_FIELDS, ...OPERATIONAL_FIELDS];

const byNameMap = new Map(ALL_FIELDS.map((f) => [f.name, f]));
const byColumnMap = new Map(ALL_FIELDS.map((f) => [f.column, f]));

/** Field by its name without the base_ prefix (also its filter key), or undefined. */
export function byName(name: string): FieldDef | undefined {
  return byNameMap.get(name);
}

/** Field by its column name (base_...), or undefined. */
export function byColumn(column: string): FieldDef | undefined {
  return byColumnMap.get(column);
}

/** Filter key of a column: its name without the base_ prefix. */
export function filterKey(field: FieldDef): string {
  return field.name;
}

/** Allowed values of an enum field as plain strings ([] when the field has no fixed set). */
export function enumValues(field: FieldDef): string[] {
  return field.enumValues ? field.enumValues.map((o) => o.value) : [];
}

/** Index-filterable attributes: 45 entries, 42 base fields + 3 operational (spec: draft extension). */
export function filterable(): FieldDef[] {
  return ALL_FIELDS.filter((f) => f.index.filterable);
}

/** Index-searchable base fields, in rank order 10-18 (D-27). */
export function searchable(): FieldDef[] {
  return ALL_FIELDS.filter((f) => f.index.searchableRank !== null).sort(
    (a, b) => (a.index.searchableRank ?? 0) - (b.index.searchableRank ?? 0),
  );
}

/** Index-sortable additions (dates through their epoch twin). */
export function sortable(): FieldDef[] {
  return ALL_FIELDS.filter((f) => f.index.sortable);
}

/** Name of the index attribute a field filters/sorts on (its epoch twin for dates, D-26). */
export function indexAttribute(field: FieldDef): string {
  return field.index.epochTwin ?? field.column;
}

/** Fields accepted as BaseSchemaFilters keys by the Postgres filter functions: the spec's 42 further keys and the 15 sentence numbers. */
export function rpcFilterFields(): FieldDef[] {
  return EXTRACTED_FIELDS.filter((f) => f.rpcFilter);
}

/** Fields allowed in aggregate p_fields (D-05): aggregable base fields and the sentence numbers. */
export function aggregable(): FieldDef[] {
  return EXTRACTED_FIELDS.filter((f) => f.aggregable);
}

/** Every key allowed in aggregate p_fields: aggregable core keys then aggregable base fields, without duplicates (D-05). */
export function aggregableKeys(): string[] {
  const keys = [...CORE_FILTER_KEYS.filter((k) => k.aggregable).map((k) => k.key), ...aggregable().map((f) => f.name)];
  return [...new Set(keys)];
}

/** Fields with a filter control, grouped in display order (operational last) and sorted by position. */
export function fieldsByGroup(): { group: (typeof GROUPS)[number]; fields: FieldDef[] }[] {
  return GROUPS.map((group) => ({
    group,
    fields: ALL_FIELDS.filter((f) => f.group === group.id && f.control !== "none").sort((a, b) => a.position - b.position),
  })).filter((g) => g.fields.length > 0);
}

/** Quick filters shown above the drawer. */
export function quickFilters(): FieldDef[] {
  return ALL_FIELDS.filter((f) => f.quickFilter).sort((a, b) => a.position - b.position);
}

/** Columns making up base_search_tsv, by weight. */
export function ftsColumns(): Record<"A" | "B" | "C" | "D", string[]> {
  const out: Record<"A" | "B" | "C" | "D", string[]> = { A: [], B: [], C: [], D: [] };
  for (const f of BASE_FIELDS) if (f.ftsWeight) out[f.ftsWeight].push(f.column);
  return out;
}
