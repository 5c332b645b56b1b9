/**
 * GET /extractions/base-schema/definition: the base-schema field registry as JSON (read-only), with what structured
 * search needs per field: its filter key and control, whether it aggregates and in which kind.
 */
import {
  ALL_FIELDS,
  BASE_SCHEMA_KEY,
  BASE_SCHEMA_VERSION,
  CORE_FILTER_KEYS,
  DEFAULT_AGGREGATE_FIELDS,
  GROUPS,
} from "@/lib/schema";
import { aggregateKind, filterFieldSpec, filterFieldSpecs } from "@/lib/schema/filter-fields";

export function baseSchemaDefinition() {
  return {
    schema_key: BASE_SCHEMA_KEY,
    schema_version: BASE_SCHEMA_VERSION,
    groups: GROUPS,
    fields: ALL_FIELDS.map((f) => {
      const spec = filterFieldSpec(f.name);
      return {
        ...f,
        filter_key: spec?.filterable && spec.column === f.column ? spec.key : null,
        aggregate_kind: spec?.aggregable ? aggregateKind(spec.dbType) : null,
      };
    }),
    core_filter_keys: CORE_FILTER_KEYS,
    filter_keys: filterFieldSpecs()
      .filter((s) => s.filterable)
      .map(({ key, control, enumValues }) => ({ key, control, enum_values: enumValues })),
    aggregable_fields: filterFieldSpecs()
      .filter((s) => s.aggregable)
      .map((s) => ({ key: s.key, kind: aggregateKind(s.dbType) })),
    default_aggregate_fields: DEFAULT_AGGREGATE_FIELDS,
  };
}
