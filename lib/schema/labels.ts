/**
 * The one dictionary of what a user reads for a registry code: field names (base fields, sentence numbers,
 * operational fields and the core filter keys) and enum values, in English and Polish. Pages, charts, table headers,
 * e-mails and exports with `headers=labels` take their words from here, so no snake_case code reaches a reader.
 * tests/unit/labels.test.ts proves every field and every enum value has both labels and none is a code.
 */
import { ALL_FIELDS, CORE_FILTER_KEYS, type Bilingual } from "./index";

export type LabelLocale = keyof Bilingual;

/** A snake_case token (two or more lower-case words joined by underscores): a code, never display text. */
export const SNAKE_CASE = /\b[a-z]+(_[a-z0-9]+)+\b/;

/** Columns of a judgment outside the registry, named where users see them (version history, exports, the API docs). */
export const JUDGMENT_COLUMN_LABELS: Readonly<Record<string, Bilingual>> = {
  id: { en: "Identifier", pl: "Identyfikator" },
  source_id: { en: "Source identifier", pl: "Identyfikator w źródle" },
  case_number: { en: "Case number", pl: "Sygnatura" },
  title: { en: "Title", pl: "Tytuł" },
  summary: { en: "Summary", pl: "Streszczenie" },
  court_name: { en: "Court", pl: "Sąd" },
  judges: { en: "Judges", pl: "Sędziowie" },
  judges_flat: { en: "Judges (text)", pl: "Sędziowie (tekst)" },
  keywords: { en: "Keywords", pl: "Słowa kluczowe" },
  legal_topics: { en: "Legal topics", pl: "Zagadnienia prawne" },
  cited_legislation: { en: "Cited legislation", pl: "Powołane przepisy" },
  full_text: { en: "Full text", pl: "Pełny tekst" },
  full_html: { en: "Full text (HTML)", pl: "Pełny tekst (HTML)" },
  jurisdiction: { en: "Jurisdiction", pl: "Jurysdykcja" },
  court_level: { en: "Court level", pl: "Szczebel sądu" },
  case_type: { en: "Case type", pl: "Rodzaj sprawy" },
  decision_type: { en: "Decision type", pl: "Rodzaj orzeczenia" },
  outcome: { en: "Outcome", pl: "Rozstrzygnięcie" },
  decision_date: { en: "Decision date", pl: "Data orzeczenia" },
  publication_date: { en: "Publication date", pl: "Data publikacji" },
  source_url: { en: "Source link", pl: "Link do źródła" },
  metadata: { en: "Other details", pl: "Inne dane" },
  created_at: { en: "Added", pl: "Dodano" },
  updated_at: { en: "Updated", pl: "Zaktualizowano" },
  structure_extraction_status: { en: "Structure analysis status", pl: "Stan analizy struktury" },
  deep_analysis_status: { en: "Deep analysis status", pl: "Stan analizy pogłębionej" },
  umap_x: { en: "Map position (x)", pl: "Pozycja na mapie (x)" },
  umap_y: { en: "Map position (y)", pl: "Pozycja na mapie (y)" },
  source: { en: "Source", pl: "Źródło" },
  licence: { en: "Licence", pl: "Licencja" },
  source_references: { en: "Source references", pl: "Odwołania w źródle" },
  source_hash: { en: "Source checksum", pl: "Suma kontrolna źródła" },
  cited_by_count: { en: "Cited by", pl: "Liczba cytowań" },
};

const fieldLabels = new Map<string, Bilingual>(Object.entries(JUDGMENT_COLUMN_LABELS));
for (const k of CORE_FILTER_KEYS) fieldLabels.set(k.key, k.label);
for (const f of ALL_FIELDS) {
  fieldLabels.set(f.name, f.label);
  fieldLabels.set(f.column, f.label);
}

const valueLabels = new Map<string, Map<string, Bilingual>>();
const anyValue = new Map<string, Bilingual>();
for (const f of ALL_FIELDS) {
  if (!f.enumValues) continue;
  const m = new Map<string, Bilingual>();
  for (const o of f.enumValues) {
    m.set(o.value, o);
    if (!anyValue.has(o.value)) anyValue.set(o.value, o);
  }
  valueLabels.set(f.name, m);
  valueLabels.set(f.column, m);
}
const JURISDICTIONS: Record<string, Bilingual> = {
  PL: { en: "Poland", pl: "Polska" },
  UK: { en: "United Kingdom", pl: "Wielka Brytania" },
};
valueLabels.set("jurisdiction", new Map(Object.entries(JURISDICTIONS)));

/**
 * A code with no label of its own, made readable: underscores become spaces and a leading field prefix that only
 * groups the values ("outcome_", "gender_") is kept as words, so at worst the reader sees "dismissed or refused".
 */
export function humanizeCode(code: string): string {
  const words = code.replace(/_+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : code;
}

/** The label of a field (by registry name, column or core filter key); a name the registry lacks is humanised. */
export function fieldLabel(name: string, locale: LabelLocale): string {
  const l = fieldLabels.get(name);
  return l ? l[locale] : humanizeCode(name);
}

/** True when the registry knows the field name (or column). */
export function hasFieldLabel(name: string): boolean {
  return fieldLabels.has(name);
}

/**
 * The label of one value of a field. Fixed-set values come from the registry; free-text values (offences, courts) are
 * returned as they are unless they are snake_case codes, which are humanised.
 */
export function valueLabelOf(field: string, value: string, locale: LabelLocale): string {
  const l = valueLabels.get(field)?.get(value);
  if (l) return l[locale];
  return SNAKE_CASE.test(value) && !/\s/.test(value) ? codeLabel(value, locale) : value;
}

/** The label of an enum code whatever field it belongs to (text that names a code without its field). */
export function codeLabel(code: string, locale: LabelLocale): string {
  const l = anyValue.get(code);
  return l ? l[locale] : humanizeCode(code);
}

export type FactorKind = "legislation" | "keyword" | "offence" | "outcome";

/**
 * A precedent's matching factor ("outcome: outcome_dismissed_or_refused", "offence: robbery", as
 * lib/backend/assistants/precedents.ts writes them) in the reader's words: the kind from the interface strings, a
 * registry code as its label. Anything else (a model's own wording) passes through.
 */
export function matchingFactorLabel(factor: string, kinds: Record<FactorKind, string>, locale: LabelLocale): string {
  const m = /^(legislation|keyword|offence|outcome): (.*)$/s.exec(factor);
  if (!m) return factor;
  const value = SNAKE_CASE.test(m[2]) && !/\s/.test(m[2]) ? codeLabel(m[2], locale) : m[2];
  return `${kinds[m[1] as FactorKind]}: ${value}`;
}
