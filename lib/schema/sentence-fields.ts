/**
 * Typed sentence numbers beside the base fields (group "sentence"): the first-instance sentence, the same after appeal,
 * and the change, read by lib/extraction/sentence-numbers (rules-v1) or a model. They are not among the 51 fields of
 * the shared base schema (../shared/data/base-schema-fields.json), so they live in their own list; the registry's
 * lookups (lib/schema/index.ts), the structured filters and aggregates (filter-fields.ts → structured.filter_fields)
 * and promotion (promote.ts) include them. They are filterable in Postgres structured search only, not in the
 * search-engine index (no index roles), so the engine's 45 filterable attributes stay as the spec lists them.
 * Columns: supabase/migrations/20261207800000_sentence_numbers.sql.
 */
import type { EnumOption, FieldDef, IndexRoles } from "./fields";

/** Question wording of the yes/no sentence fields (NL filter without a model); first instance only. */
const NL_TERMS: Readonly<Record<string, FieldDef["nlTerms"]>> = {
  sentence_suspended: {
    yes: { en: ["suspended", "suspended sentence*", "suspended sentence order*", "suspended custody", "suspended imprisonment"],
      pl: ["zawieszon*", "warunkowo zawieszon*", "z warunkowym zawieszeniem", "w zawieszeniu", "warunkow* zawieszeni*"] },
    no: { en: ["not suspended", "unsuspended", "without suspension", "wasn't suspended", "was not suspended"],
      pl: ["bez zawieszenia", "bez warunkowego zawieszenia", "niezawieszon*", "nie zawieszon*", "nie został* zawieszon*"] },
  },
};

const NOT_INDEXED: IndexRoles = { filterable: false, searchableRank: null, sortable: false, epochTwin: null };

export const SENTENCE_KIND_OPTIONS: readonly EnumOption[] = [
  { value: "custody", en: "Immediate custody", pl: "Bezwzględne pozbawienie wolności",
    synonyms: { en: ["immediate custody", "immediate imprisonment", "immediate prison sentence*", "immediate custodial sentence*", "immediate jail"],
      pl: ["bezwzględn* pozbawieni* wolności", "bezwzględn* kar* pozbawienia wolności", "kar* bezwzględn* pozbawienia wolności", "bezwzględn* więzieni*", "kar* bezwzględn*", "bezwzględn* kar*"] } },
  { value: "suspended", en: "Suspended custody", pl: "Pozbawienie wolności z warunkowym zawieszeniem" },
  { value: "community", en: "Community penalty", pl: "Kara wolnościowa (praca społeczna, ograniczenie wolności)",
    synonyms: { en: ["community order*", "community sentence*", "community penalt*"], pl: ["kar* ograniczenia wolności", "kar* wolnościow*"] } },
  { value: "fine", en: "Fine", pl: "Grzywna", synonyms: { en: ["fined"], pl: ["kar* grzywny", "ukaran* grzywną"] } },
  { value: "discharge", en: "Discharge", pl: "Odstąpienie od kary / warunkowe umorzenie",
    synonyms: { en: ["conditional discharge*", "absolute discharge*"], pl: ["warunkow* umorzeni*", "odstąpi* od wymierzenia kary"] } },
  { value: "other", en: "Other", pl: "Inna" },
];

export const CURRENCY_OPTIONS: readonly EnumOption[] = [
  { value: "pln", en: "Polish złoty (PLN)", pl: "Złoty (PLN)" },
  { value: "gbp", en: "Pound sterling (GBP)", pl: "Funt szterling (GBP)" },
];

/** How a sentence number is typed: its column type, its filter control and, for an enum, its options. */
const SHAPES = {
  kind: { type: "text", control: "enum_multi", enumValues: SENTENCE_KIND_OPTIONS },
  currency: { type: "text", control: "enum_multi", enumValues: CURRENCY_OPTIONS },
  integer: { type: "integer", control: "numeric_range", enumValues: null },
  numeric: { type: "numeric", control: "numeric_range", enumValues: null },
  boolean: { type: "boolean", control: "boolean_tri", enumValues: null },
} as const satisfies Record<string, Pick<FieldDef, "type" | "control" | "enumValues">>;

type SentenceFieldRow = readonly [name: string, shape: keyof typeof SHAPES, label: FieldDef["label"], description: string];

/** Each field's own part (name, shape, labels, the model's description), in display order. */
const ROWS: readonly SentenceFieldRow[] = [
  ["sentence_kind", "kind", { en: "Sentence kind", pl: "Rodzaj kary" },
    "The principal penalty passed at first instance: custody (immediate), suspended custody, a community penalty (community order, unpaid work, Polish restriction of liberty), a fine, a discharge or conditional discontinuance, or other."],
  ["sentence_custody_months", "integer", { en: "Custody (months)", pl: "Pozbawienie wolności (miesiące)" },
    "Total custodial term passed at first instance, in whole months (years × 12 + months; a stated total or aggregate sentence, kara łączna, wins; consecutive terms are summed, concurrent ones give their maximum). Null for life imprisonment and when no custody was passed."],
  ["sentence_suspended", "boolean", { en: "Suspended", pl: "Zawieszenie wykonania kary" },
    "Whether the first-instance custodial sentence was suspended (warunkowe zawieszenie, suspended sentence order); false when a sentence was stated and is not suspended."],
  ["sentence_suspension_months", "integer", { en: "Suspension period (months)", pl: "Okres próby (miesiące)" },
    "Operational period of a suspended sentence (okres próby), in months."],
  ["sentence_community_hours", "integer", { en: "Unpaid work (hours)", pl: "Nieodpłatna praca (godziny)" },
    "Hours of unpaid work or community service ordered at first instance; for Polish restriction of liberty, hours a month times months."],
  ["sentence_fine_amount", "numeric", { en: "Fine amount", pl: "Kwota grzywny" },
    "Amount of the fine passed at first instance, in its currency (Polish day-rate fines: number of stawki dzienne × the rate, when both are stated)."],
  ["sentence_fine_currency", "currency", { en: "Fine currency", pl: "Waluta grzywny" },
    "Currency of the first-instance fine."],
  ["sentence_kind_after_appeal", "kind", { en: "Sentence kind after appeal", pl: "Rodzaj kary po apelacji" },
    "The principal penalty as it stands after the appeal: the first-instance one where the appeal is dismissed, the one substituted where the court changes it; null where the conviction is quashed or the case sent back."],
  ["sentence_custody_months_after_appeal", "integer", { en: "Custody after appeal (months)", pl: "Pozbawienie wolności po apelacji (miesiące)" },
    "Total custodial term in whole months as it stands after the appeal (e.g. \"obniża karę do 1 roku\" → 12, \"substitute 3 years\" → 36)."],
  ["sentence_suspended_after_appeal", "boolean", { en: "Suspended after appeal", pl: "Zawieszenie wykonania kary po apelacji" },
    "Whether the custodial sentence is suspended as it stands after the appeal."],
  ["sentence_suspension_months_after_appeal", "integer", { en: "Suspension period after appeal (months)", pl: "Okres próby po apelacji (miesiące)" },
    "Operational period of a suspended sentence after the appeal, in months."],
  ["sentence_community_hours_after_appeal", "integer", { en: "Unpaid work after appeal (hours)", pl: "Nieodpłatna praca po apelacji (godziny)" },
    "Hours of unpaid work as they stand after the appeal."],
  ["sentence_fine_amount_after_appeal", "numeric", { en: "Fine amount after appeal", pl: "Kwota grzywny po apelacji" },
    "Amount of the fine as it stands after the appeal."],
  ["sentence_fine_currency_after_appeal", "currency", { en: "Fine currency after appeal", pl: "Waluta grzywny po apelacji" },
    "Currency of the fine after the appeal."],
  ["sentence_change_months", "integer", { en: "Custody change on appeal (months)", pl: "Zmiana kary pozbawienia wolności w apelacji (miesiące)" },
    "Custody after appeal minus custody at first instance, in months (negative: reduced; 0: unchanged), when both are known."],
];

/**
 * The 15 sentence-number fields, in display order (positions from 201): all in the "sentence" group, filterable and
 * aggregable in structured search, not quick filters, not in full-text search or the engine's index.
 */
export const SENTENCE_FIELDS: readonly FieldDef[] = ROWS.map(([name, shape, label, description], i) => ({
  name,
  column: `base_${name}`,
  ...SHAPES[shape],
  group: "sentence",
  position: 201 + i,
  label,
  description,
  rpcFilter: true,
  quickFilter: false,
  aggregable: true,
  ftsWeight: null,
  index: NOT_INDEXED,
  ...(NL_TERMS[name] ? { nlTerms: NL_TERMS[name] } : {}),
}));
