/**
 * The base-schema field registry: the ONE source of truth for the 51 extracted fields stored as typed `base_` columns
 * on `judgments`, plus the operational extraction columns. SQL columns and CHECKs (supabase/migrations/20260102000000_
 * judgments.sql), zod filter schemas, the filter drawer, the aggregate allowlist (D-05), Meilisearch/LanceDB settings
 * and the NL-filter output schema all derive from this module; tests/db/registry-columns.test.ts and
 * tests/unit/registry.test.ts prove the database and ../shared/data/base-schema-fields.json agree with it.
 *
 * Index roles follow the spec's draft extension (Resources: Extracted base-schema fields): 45 filterable attributes
 * (42 base fields + 3 operational; date fields filter and sort through their epoch-second `_ts` twin, D-26),
 * 9 searchable free-text fields ranked 10-18 after full_text (D-27), 4 sortable additions, never-indexed five.
 * Deviation from the shared JSON, on purpose: offender_age_offence is searchable only (the spec's list of 33 newly
 * filterable fields does not name it, and it has no filter control), keeping the total at 45 (D-04).
 * Labels and enum labels are our own wording.
 */
import { COURT_AND_CHARGE_FIELDS } from "./base-fields-court-charges";
import { EVIDENCE_AND_APPEAL_FIELDS } from "./base-fields-evidence-appeal";
import { SENTENCE_AND_VICTIM_FIELDS } from "./base-fields-sentence-victim";
import type { Bilingual, FieldDef } from "./field-types";
import { CITES_VALUE_PATTERN } from "./provision-id";

export * from "./field-types";

/** The 51 typed base-schema fields, in the base schema's order (also the column order of the table). */
export const BASE_FIELDS: readonly FieldDef[] = [...COURT_AND_CHARGE_FIELDS, ...SENTENCE_AND_VICTIM_FIELDS, ...EVIDENCE_AND_APPEAL_FIELDS];

/**
 * Operational base_ columns exposed as filters in the index (new registry entries of the draft extension, group
 * operational). They are not BaseSchemaFilters keys: the Postgres filter functions only ever see completed rows.
 */
export const OPERATIONAL_FIELDS: readonly FieldDef[] = [
  {
    name: "extraction_status",
    column: "base_extraction_status",
    type: "text",
    control: "enum_multi",
    group: "operational",
    position: 100,
    label: { en: "Extraction status", pl: "Stan ekstrakcji" },
    description: "Where the base-schema extraction of this judgment stands.",
    enumValues: [
      { value: "pending", en: "Waiting", pl: "Oczekuje" },
      { value: "completed", en: "Done", pl: "Zakończona" },
      { value: "failed", en: "Failed", pl: "Nieudana" },
    ],
    rpcFilter: false,
    quickFilter: false,
    aggregable: false,
    ftsWeight: null,
    index: { filterable: true, searchableRank: null, sortable: false, epochTwin: null },
  },
  {
    name: "extraction_model",
    column: "base_extraction_model",
    type: "text",
    // enum_multi without a fixed set: the values are model ids, discovered from facets.
    control: "enum_multi",
    group: "operational",
    position: 101,
    label: { en: "Extraction model", pl: "Model ekstrakcji" },
    description: "Identifier of the model that produced the extracted values.",
    enumValues: null,
    rpcFilter: false,
    quickFilter: false,
    aggregable: false,
    ftsWeight: null,
    index: { filterable: true, searchableRank: null, sortable: false, epochTwin: null },
  },
  {
    name: "extracted_at",
    column: "base_extracted_at",
    type: "timestamptz",
    control: "date_range",
    group: "operational",
    position: 102,
    label: { en: "Extracted on", pl: "Data ekstrakcji" },
    description: "When the extracted values were last written.",
    enumValues: null,
    rpcFilter: false,
    quickFilter: false,
    aggregable: false,
    ftsWeight: null,
    index: { filterable: true, searchableRank: null, sortable: true, epochTwin: "base_extracted_at_ts" },
  },
];

/** base_ columns that are neither typed fields nor index attributes: never indexed (spec: draft extension). */
export const NEVER_INDEXED_COLUMNS = [
  "base_schema_key",
  "base_schema_version",
  "base_extraction_error",
  "base_raw_extraction",
  "base_search_tsv",
] as const;

/** Every base_ column on judgments: 51 typed + 3 operational + 5 metadata = 59 (spec: Extracted base-schema fields). */
export const BASE_COLUMN_COUNT = 59;

/** Defaults of the metadata columns (match the migration). */
export const BASE_SCHEMA_KEY = "universal_legal_document_base_schema";
export const BASE_SCHEMA_VERSION = "v1";

/** Core (non-base) filter keys of BaseSchemaFilters (spec: Filter object; D-07, D-08, D-10). */
export interface CoreFilterKey {
  key: string;
  /** Column the key filters; for date_of_appeal_court_judgment it is the base column. */
  column: string;
  control: "enum_multi" | "tag_array" | "date_range" | "uuid_membership";
  enumValues: readonly string[] | null;
  /** An anchored pattern every value of an any-of list must match (lib/schema/provision-id.ts), else none. */
  valuePattern?: string;
  /** Allowed in aggregate p_fields (D-05). */
  aggregable: boolean;
  label: Bilingual;
  description: string;
}

export const CORE_FILTER_KEYS: readonly CoreFilterKey[] = [
  {
    key: "jurisdiction",
    column: "jurisdiction",
    control: "enum_multi",
    enumValues: ["PL", "UK"],
    aggregable: true,
    label: { en: "Jurisdiction", pl: "Jurysdykcja" },
    description: "Any of PL, UK; an empty array matches nothing.",
  },
  {
    key: "decision_date",
    column: "decision_date",
    control: "date_range",
    enumValues: null,
    aggregable: true,
    label: { en: "Decision date", pl: "Data orzeczenia" },
    description: "Inclusive range {from,to} (or {min,max} with ISO dates, D-08) or one YYYY-MM-DD date; year kind in aggregates.",
  },
  {
    key: "date_of_appeal_court_judgment",
    column: "base_date_of_appeal_court_judgment",
    control: "date_range",
    enumValues: null,
    aggregable: true,
    label: { en: "Appeal judgment date", pl: "Data wyroku sądu odwoławczego" },
    description: "Same shape as decision_date, on the extracted appeal-judgment date.",
  },
  {
    key: "collection_ids",
    column: "id",
    control: "uuid_membership",
    enumValues: null,
    aggregable: false,
    label: { en: "Collections", pl: "Kolekcje" },
    description: "Membership in any listed collection; [] means no filter; refused on filter/aggregate endpoints (D-10).",
  },
  {
    key: "court_name",
    column: "court_name",
    control: "enum_multi",
    enumValues: null,
    aggregable: true,
    label: { en: "Court", pl: "Sąd" },
    description: "Any of the given court names (exact); categorical in aggregates (D-07).",
  },
  {
    // The citator's `cites` (docs/citations.md): the same any-of the search index filters (`cites IN [...]`), so an
    // article or an act includes the judgments applying any provision under it (cites holds the ancestors).
    key: "cites",
    column: "cites",
    control: "tag_array",
    enumValues: null,
    valuePattern: CITES_VALUE_PATTERN,
    aggregable: false,
    label: { en: "Cites", pl: "Powołuje" },
    description:
      "Any of the given provision ids (PL/kk/279/§1, UK/ukpga/1861/100/s18; an article or act includes its sub-provisions) or corpus judgment ids the judgment cites; a provision named only for an acquittal is not cited; [] matches nothing.",
  },
];

/** The aggregate's default field set when p_fields is null (spec: POST /extractions/base-schema/aggregate). */
export const DEFAULT_AGGREGATE_FIELDS = [
  "offender_gender",
  "convict_offences",
  "sentences_received",
  "appeal_outcome",
  "did_offender_confess",
  "court_name",
  "decision_date",
] as const;
