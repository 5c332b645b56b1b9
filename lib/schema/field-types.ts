/** The field registry's types and groups (fields.ts: the registry itself). */
export const FIELD_TYPES = ["text", "text[]", "boolean", "integer", "numeric", "date", "timestamptz"] as const;
/** Postgres type of the column (as information_schema spells it after normalising arrays to `text[]`). */
export type FieldType = (typeof FIELD_TYPES)[number];

export const CONTROLS = ["enum_multi", "tag_array", "boolean_tri", "numeric_range", "date_range", "substring", "none"] as const;
/** How a field is filtered: any-of lists, tri-state boolean, {min,max} ranges, case-insensitive substring, or not at all. */
export type Control = (typeof CONTROLS)[number];

export const GROUP_IDS = [
  "court_date",
  "offender",
  "victim",
  "charges_plea",
  "sentence",
  "appeal",
  "evidence",
  "other",
  "operational",
] as const;
export type GroupId = (typeof GROUP_IDS)[number];

export interface Bilingual {
  en: string;
  pl: string;
}

/** Field groups in display order; operational is last (spec: draft extension). */
export const GROUPS: readonly ({ id: GroupId } & Bilingual)[] = [
  { id: "court_date", en: "Court and dates", pl: "Sąd i daty" },
  { id: "offender", en: "Offender", pl: "Sprawca" },
  { id: "victim", en: "Victim", pl: "Pokrzywdzony" },
  { id: "charges_plea", en: "Charges and plea", pl: "Zarzuty i przyznanie się" },
  { id: "sentence", en: "Sentence", pl: "Kara" },
  { id: "appeal", en: "Appeal", pl: "Apelacja" },
  { id: "evidence", en: "Evidence and reasons", pl: "Dowody i motywy rozstrzygnięcia" },
  { id: "other", en: "Other", pl: "Inne" },
  { id: "operational", en: "Extraction (technical)", pl: "Ekstrakcja (dane techniczne)" },
];

/**
 * Words a question may use for a value or a yes/no answer, read by the NL-filter rules translator
 * (lib/llm/nl-filter-rules.ts). Lower case; a trailing `*` on a word stands for any ending (Polish inflection:
 * "kobiet*" is kobieta, kobiety, kobiet). The longest phrase wins, so "female victim" is victim_gender, not
 * offender_gender.
 */
export interface NlPhrases {
  en: readonly string[];
  pl: readonly string[];
}

export interface EnumOption extends Bilingual {
  value: string;
  /** Question wording for this value (NL filter without a model); the labels themselves are display text, not matched. */
  synonyms?: NlPhrases;
}

/** Roles of a field in the search-engine index (Meilisearch / LanceDB). */
export interface IndexRoles {
  /** Filterable attribute (for dates/timestamps: through `epochTwin`). */
  filterable: boolean;
  /** Rank among searchable attributes (core fields hold 1-9, D-27), or null when not searchable. */
  searchableRank: number | null;
  /** Sortable attribute (for dates/timestamps: through `epochTwin`). */
  sortable: boolean;
  /** Index-only integer twin holding epoch seconds; the ISO value itself is stored without a role (D-26). */
  epochTwin: string | null;
}

export interface FieldDef {
  /** Field name without the base_ prefix; also the key in BaseSchemaFilters. */
  name: string;
  /** Column on public.judgments. */
  column: string;
  type: FieldType;
  control: Control;
  group: GroupId;
  /** Display order inside the filter drawer (ascending). */
  position: number;
  label: Bilingual;
  description: string;
  /** Allowed values of an enum-coded field (CHECK-enforced in SQL), else null. */
  enumValues: readonly EnumOption[] | null;
  /** boolean_tri only: question wording for true ("confessed") and false ("did not confess") (NL filter without a model). */
  nlTerms?: { yes: NlPhrases; no: NlPhrases };
  /** Accepted as a key of the BaseSchemaFilters object by the Postgres filter functions. */
  rpcFilter: boolean;
  /** Shown among the quick filters above the drawer. */
  quickFilter: boolean;
  /** Allowed in aggregate_extracted_data's p_fields (D-05). */
  aggregable: boolean;
  /** Weight of the column inside base_search_tsv, or null when not part of it. */
  ftsWeight: "A" | "B" | "C" | "D" | null;
  index: IndexRoles;
}
