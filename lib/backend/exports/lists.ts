/**
 * The lists a user can export, each as an ExportSource for ./stream.ts: search results, extraction rows (the
 * /search/extractions cohort), collection members, aggregates (the distributions of /search/extractions) and
 * comparisons of two cohorts (/cohorts/compare). Every source reads its first page (or, for extraction rows, the
 * cohort's count) before the response starts, so a missing collection or a bad filter answers with its usual error;
 * the rest is read page by page as the client downloads.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";
import type { Identity } from "@/lib/backend/identity";
import { searchDocuments, type SearchDocumentsParams } from "@/lib/backend/search";
import { filterDocuments } from "@/lib/backend/extractions/filter";
import { aggregateExtractedData, type Distribution } from "@/lib/backend/extractions/aggregate";
import { getCollection, type CollectionDocument } from "@/lib/backend/collections/collections";
import type { CompareCohortsResponse, CompareField } from "@/lib/backend/cohorts/compare";
import { byName, CORE_FILTER_KEYS, EXTRACTED_FIELDS, type Bilingual, type EnumOption, type FieldDef } from "@/lib/schema";
import type { AggregateRequest, BaseSchemaFilters } from "@/lib/schema/requests/structured";
import { valueLabelOf } from "@/lib/schema/labels";
import { filterFieldSpec } from "@/lib/schema/filter-fields";
import type { Locale } from "@/lib/i18n/locale";
import { isJsonObject, jsonArg, type JsonObject } from "@/lib/supabase/json";
import { onePage, withFirst, type ExportColumn, type ExportSource } from "./stream";

/** The engine counts (and pages) at most this many hits of one query. */
export const SEARCH_EXPORT_MAX = 1000;
/** Extraction rows and collection members: the list functions page up to offset 10,000. */
export const LIST_EXPORT_MAX = 10_000;
const SEARCH_PAGE = 100;
const LIST_PAGE = 100;

/** Labels of the judgment columns that are not extracted fields (the registry's core keys cover the rest). */
const CORE_LABELS: Record<string, Bilingual> = {
  rank: { en: "Rank", pl: "Pozycja" },
  id: { en: "Judgment ID", pl: "ID orzeczenia" },
  case_number: { en: "Case number", pl: "Sygnatura" },
  title: { en: "Title", pl: "Tytuł" },
  court_level: { en: "Court level", pl: "Szczebel sądu" },
  case_type: { en: "Case type", pl: "Rodzaj sprawy" },
  decision_type: { en: "Decision type", pl: "Rodzaj orzeczenia" },
  outcome: { en: "Outcome", pl: "Rozstrzygnięcie" },
  keywords: { en: "Keywords", pl: "Słowa kluczowe" },
  source_url: { en: "Source", pl: "Źródło" },
  summary: { en: "Summary", pl: "Streszczenie" },
  score: { en: "Relevance", pl: "Trafność" },
  added_at: { en: "Added", pl: "Dodano" },
  field: { en: "Field", pl: "Pole" },
  kind: { en: "Kind", pl: "Rodzaj" },
  value: { en: "Value", pl: "Wartość" },
  lo: { en: "From", pl: "Od" },
  hi: { en: "To (exclusive)", pl: "Do (bez)" },
  count: { en: "Count", pl: "Liczba" },
  share: { en: "Share of covered", pl: "Udział wśród uzupełnionych" },
  document_id: { en: "Judgment ID", pl: "ID orzeczenia" },
  status: { en: "Status", pl: "Status" },
  error: { en: "Error", pl: "Błąd" },
  model: { en: "Model", pl: "Model" },
  values: { en: "Values", pl: "Wartości" },
};
for (const k of CORE_FILTER_KEYS) CORE_LABELS[k.key] ??= k.label;

/**
 * A label for a column code: the judgment's own columns first (the registry has extracted fields of the same name,
 * e.g. an extracted `case_number`), then the field registry.
 */
export function columnLabel(code: string): Bilingual | undefined {
  return CORE_LABELS[code] ?? byName(code)?.label;
}

/** A label for a filter or aggregate key: the field registry first, then the judgment columns. */
export function fieldLabel(code: string): Bilingual | undefined {
  return byName(code)?.label ?? CORE_LABELS[code];
}

const YES_NO: Record<Locale, Record<string, string>> = { en: { true: "Yes", false: "No" }, pl: { true: "Tak", false: "Nie" } };

/**
 * A distribution's value in the reader's words, as the charts show it: the registry's one dictionary (enum values,
 * jurisdictions; snake_case codes humanised), Yes/No for a boolean field's "true"/"false".
 */
export function distributionValueLabel(field: string, value: string, locale: Locale): string {
  if (filterFieldSpec(field)?.dbType === "boolean" && (value === "true" || value === "false")) return YES_NO[locale][value];
  return valueLabelOf(field, value, locale);
}

function col<R>(code: string, value: (row: R) => unknown, options?: readonly EnumOption[]): ExportColumn<R> {
  return { code, label: columnLabel(code), value, ...(options ? { options } : {}) };
}

/**
 * An extracted field's column. A field named like one of the judgment's own columns (the extracted `case_number`)
 * goes by its database column name, so no two columns (or JSONL keys) share a code.
 */
const fieldCol = <R>(f: FieldDef, get: (row: R) => JsonObject, taken: ReadonlySet<string>): ExportColumn<R> => ({
  code: taken.has(f.name) ? f.column : f.name,
  label: f.label,
  value: (r) => get(r)[f.column] ?? null,
  ...(f.enumValues ? { options: f.enumValues } : {}),
});

// ---------------------------------------------------------------------------------------------------------------
// Search results

type Hit = Record<string, unknown> & { _rank: number };
const SEARCH_COLUMNS: ExportColumn<Hit>[] = [
  col("rank", (h) => h._rank),
  ...["id", "case_number", "title", "court_name", "jurisdiction", "court_level", "case_type", "decision_type", "outcome", "decision_date", "keywords", "source_url"].map((k) =>
    col<Hit>(k, (h) => h[k] ?? null),
  ),
  col("score", (h) => h._ranking_score ?? null),
];

/** The hits of one search, in the engine's order, up to the 1,000 it counts. */
export async function searchExportSource(params: Omit<SearchDocumentsParams, "limit" | "offset">, identity: Pick<Identity, "role">): Promise<ExportSource<Hit>> {
  const page = (offset: number) => searchDocuments({ ...params, facets: undefined, limit: SEARCH_PAGE, offset }, identity);
  const first = await page(0);
  const total = Math.min(first.estimated_total, SEARCH_EXPORT_MAX);
  const ranked = (hits: Record<string, unknown>[], offset: number): Hit[] => hits.map((h, i) => ({ ...h, _rank: offset + i + 1 }));
  async function* rest(): AsyncGenerator<Hit[]> {
    for (let offset = SEARCH_PAGE; offset < total; offset += SEARCH_PAGE) {
      const r = await page(offset);
      const hits = r.hits.slice(0, total - offset);
      if (hits.length) yield ranked(hits, offset);
      if (r.hits.length < SEARCH_PAGE) return;
    }
  }
  return { columns: SEARCH_COLUMNS, expectedRows: total, pages: withFirst(ranked(first.hits.slice(0, total), 0), rest) };
}

// ---------------------------------------------------------------------------------------------------------------
// Judgments read by id (typed columns: base fields, sentence numbers, court, source)

/** Full rows (no full text) of up to 100 judgments, keyed by id, as the caller may read them. */
async function judgmentsById(db: DbClient, ids: string[]): Promise<Map<string, JsonObject>> {
  if (ids.length === 0) return new Map();
  const { data, error } = await db.rpc("judgments_by_ids", { p_ids: ids });
  if (error) throw fromDatabaseError(error);
  const out = new Map<string, JsonObject>();
  for (const j of data) if (isJsonObject(j) && typeof j.id === "string") out.set(j.id, j);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Extraction rows: the cohort of /search/extractions, one column per extracted field

/** A cohort row: the judgment's columns (typed base fields and sentence numbers included) as jsonb, long texts left out. */
type ExtractionRow = JsonObject;
const EXTRACTION_CORE: ExportColumn<ExtractionRow>[] = ["id", "case_number", "title", "jurisdiction", "court_name", "decision_date"].map((k) =>
  col<ExtractionRow>(k, (r) => r[k] ?? null),
);
const coreCodes = new Set(EXTRACTION_CORE.map((c) => c.code));
const EXTRACTION_COLUMNS: ExportColumn<ExtractionRow>[] = [...EXTRACTION_CORE, ...EXTRACTED_FIELDS.map((f) => fieldCol<ExtractionRow>(f, (r) => r, coreCodes))];
/** Rows per call of export_extracted_rows (its own cap). */
const EXPORT_PAGE = 1000;

export interface CohortQuery {
  filters: BaseSchemaFilters;
  text_query?: string | null;
}

/**
 * The judgments matching a structured filter, in the results table's order (newest first), up to LIST_EXPORT_MAX.
 * The filter route answers the count (and any error of the filter) first; the rows come 1,000 at a time.
 */
export async function extractionRowsExportSource(db: DbClient, q: CohortQuery): Promise<ExportSource<ExtractionRow>> {
  const textQuery = q.text_query ?? null;
  const head = await filterDocuments(db, { filters: q.filters, text_query: textQuery, limit: 1, offset: 0 });
  const total = Math.min(head.total, LIST_EXPORT_MAX);
  const page = async (offset: number): Promise<ExtractionRow[]> => {
    const { data, error } = await db.rpc("export_extracted_rows", { p_filters: jsonArg(q.filters), p_text_query: textQuery, p_limit: EXPORT_PAGE, p_offset: offset });
    if (error) throw fromDatabaseError(error, "FILTER_FAILED");
    return data.filter(isJsonObject);
  };
  // One page is read ahead while the previous one is written, so the database and the file writer overlap.
  const ahead = (offset: number) => {
    const p = page(offset);
    p.catch(() => undefined); // awaited below; a download cancelled first must not leave an unhandled rejection
    return p;
  };
  async function* pages(): AsyncGenerator<ExtractionRow[]> {
    let next = total > 0 ? ahead(0) : null;
    for (let offset = 0; next; offset += EXPORT_PAGE) {
      const rows = await next;
      next = rows.length === EXPORT_PAGE && offset + EXPORT_PAGE < total ? ahead(offset + EXPORT_PAGE) : null;
      if (rows.length) yield rows.slice(0, total - offset);
    }
  }
  return { columns: EXTRACTION_COLUMNS, expectedRows: total, pages: pages() };
}

// ---------------------------------------------------------------------------------------------------------------
// Collection members

type Member = CollectionDocument & { typed: JsonObject };
/** Column sets the collection page offers (its preset picker). */
export const MEMBER_PRESETS = {
  basic: ["id", "case_number", "title", "jurisdiction", "decision_date"],
  citation: ["case_number", "title", "court_name", "decision_date", "source_url"],
  full: ["id", "case_number", "title", "jurisdiction", "court_name", "decision_date", "source_url", "added_at"],
} as const;
export type MemberPreset = keyof typeof MEMBER_PRESETS;

function memberValue(r: Member, k: string): unknown {
  if (k in r && k !== "typed") return r[k as keyof CollectionDocument];
  return r.typed[k] ?? null;
}

/** A collection's members, newest first (as its page lists them); 404 for a collection the caller cannot see. */
export async function collectionMembersExportSource(db: DbClient, id: string, preset: MemberPreset): Promise<ExportSource<Member> & { name: string }> {
  const collection = await getCollection(db, id);
  const needsTyped = MEMBER_PRESETS[preset].some((k) => k === "court_name" || k === "source_url");
  const page = async (offset: number): Promise<Member[]> => {
    const { data, error } = await db.rpc("list_collection_documents", { p_collection_id: id, p_limit: LIST_PAGE, p_offset: offset });
    if (error) throw fromDatabaseError(error);
    const docs = data.map(({ total_count: _t, ...d }) => d);
    const typed = needsTyped ? await judgmentsById(db, docs.map((d) => d.id)) : new Map<string, JsonObject>();
    return docs.map((d) => ({ ...d, typed: typed.get(d.id) ?? {} }));
  };
  const total = Math.min(collection.document_count, LIST_EXPORT_MAX);
  const first = await page(0);
  async function* rest(): AsyncGenerator<Member[]> {
    for (let offset = LIST_PAGE; offset < total; offset += LIST_PAGE) {
      const rows = await page(offset);
      if (rows.length) yield rows.slice(0, total - offset);
      if (rows.length < LIST_PAGE) return;
    }
  }
  const columns = MEMBER_PRESETS[preset].map((k) => col<Member>(k, (r) => memberValue(r, k)));
  return { name: collection.name, columns, expectedRows: total, pages: withFirst(first, rest) };
}

// ---------------------------------------------------------------------------------------------------------------
// Aggregates: one row per field and value (or numeric bucket), with the missing and "other" rows

interface AggRow {
  field: string;
  kind: Distribution["kind"];
  value: string | null;
  lo: number | null;
  hi: number | null;
  count: number;
  share: number | null;
}

/** Rows of one distribution; shares are of the judgments where the field has a value (`covered`). */
export function distributionRows(field: string, d: Distribution): AggRow[] {
  const share = (n: number) => (d.covered > 0 ? Number((n / d.covered).toFixed(6)) : null);
  const base = { field, kind: d.kind, lo: null, hi: null };
  const rows: AggRow[] =
    d.kind === "numeric"
      ? d.buckets.map((b) => ({ field, kind: d.kind, value: null, lo: b.lo, hi: b.hi, count: b.count, share: share(b.count) }))
      : d.values.map((v) => ({ ...base, value: v.value, count: v.count, share: share(v.count) }));
  if (d.kind === "categorical" && d.other > 0) rows.push({ ...base, value: "(other)", count: d.other, share: share(d.other) });
  rows.push({ ...base, value: "(missing)", count: d.null, share: null });
  return rows;
}

const AGG_SPECIAL: EnumOption[] = [
  { value: "(other)", en: "(other values)", pl: "(inne wartości)" },
  { value: "(missing)", en: "(no value)", pl: "(brak wartości)" },
];
const KIND_OPTIONS: EnumOption[] = [
  { value: "categorical", en: "Categories", pl: "Kategorie" },
  { value: "numeric", en: "Numeric range", pl: "Przedział liczbowy" },
  { value: "year", en: "Year", pl: "Rok" },
];

/**
 * The aggregate's distributions as rows. In `labels` mode a row's field and value read as on the charts: the field's
 * registry label and the value's enum label.
 */
export async function aggregateExportSource(db: DbClient, req: AggregateRequest): Promise<ExportSource<AggRow> & { total: number }> {
  const result = await aggregateExtractedData(db, req);
  const rows = Object.entries(result.fields).flatMap(([f, d]) => distributionRows(f, d));
  const fieldOptions: EnumOption[] = Object.keys(result.fields).map((f) => ({ value: f, ...(fieldLabel(f) ?? { en: f, pl: f }) }));
  const columns: ExportColumn<AggRow>[] = [
    col("field", (r) => r.field, fieldOptions),
    col("kind", (r) => r.kind, KIND_OPTIONS),
    {
      ...col<AggRow>("value", (r) => r.value),
      // One value column carries the labels of whichever field the row is about.
      labelled: (r, locale) => (r.value === null ? null : (AGG_SPECIAL.find((x) => x.value === r.value)?.[locale] ?? distributionValueLabel(r.field, r.value, locale))),
    },
    col("lo", (r) => r.lo),
    col("hi", (r) => r.hi),
    col("count", (r) => r.count),
    col("share", (r) => r.share),
  ];
  return { columns, expectedRows: rows.length, total: result.total, pages: onePage(rows) };
}

// ---------------------------------------------------------------------------------------------------------------
// Comparisons of two cohorts: one row per field and value (a numeric field: one row, its medians)

interface CompareRow {
  field: string;
  kind: CompareField["kind"];
  value: string | null;
  statistic: "share_difference" | "median_difference";
  a_count: number;
  a_size: number;
  a_share: number | null;
  a_median: number | null;
  a_q1: number | null;
  a_q3: number | null;
  b_count: number;
  b_size: number;
  b_share: number | null;
  b_median: number | null;
  b_q1: number | null;
  b_q3: number | null;
  diff: number | null;
  ci_low: number | null;
  ci_high: number | null;
}

const round6 = (n: number | null) => (n === null ? null : Number(n.toFixed(6)));

/**
 * The comparison's rows. A categorical or year value: both counts and shares (of the whole cohort, as the page shows
 * them), the difference a − b and its Newcombe interval. A numeric field: the judgments with a value as the counts,
 * the medians and quartiles, the median difference and its bootstrap interval.
 */
export function compareRows(res: CompareCohortsResponse): CompareRow[] {
  const sizes = { a_size: res.a.size, b_size: res.b.size };
  const none = { a_median: null, a_q1: null, a_q3: null, b_median: null, b_q1: null, b_q3: null };
  return res.fields.flatMap((f): CompareRow[] => {
    if (f.kind === "numeric") {
      return [{
        field: f.field, kind: f.kind, value: null, statistic: "median_difference", ...sizes,
        a_count: f.a.n, a_share: null, a_median: f.a.median, a_q1: f.a.q1, a_q3: f.a.q3,
        b_count: f.b.n, b_share: null, b_median: f.b.median, b_q1: f.b.q1, b_q3: f.b.q3,
        diff: f.diff, ci_low: f.ci_low, ci_high: f.ci_high,
      }];
    }
    return f.values.map((v) => ({
      field: f.field, kind: f.kind, value: v.value, statistic: "share_difference" as const, ...sizes, ...none,
      a_count: v.a_count, a_share: round6(v.a_share), b_count: v.b_count, b_share: round6(v.b_share),
      diff: round6(v.diff), ci_low: round6(v.ci_low), ci_high: round6(v.ci_high),
    }));
  });
}

const COMPARE_LABELS: Record<string, Bilingual> = {
  statistic: { en: "Statistic", pl: "Statystyka" },
  a_count: { en: "A: judgments", pl: "A: orzeczenia" },
  a_size: { en: "A: cohort size", pl: "A: liczebność kohorty" },
  a_share: { en: "A: share", pl: "A: udział" },
  a_median: { en: "A: median", pl: "A: mediana" },
  a_q1: { en: "A: lower quartile", pl: "A: dolny kwartyl" },
  a_q3: { en: "A: upper quartile", pl: "A: górny kwartyl" },
  b_count: { en: "B: judgments", pl: "B: orzeczenia" },
  b_size: { en: "B: cohort size", pl: "B: liczebność kohorty" },
  b_share: { en: "B: share", pl: "B: udział" },
  b_median: { en: "B: median", pl: "B: mediana" },
  b_q1: { en: "B: lower quartile", pl: "B: dolny kwartyl" },
  b_q3: { en: "B: upper quartile", pl: "B: górny kwartyl" },
  diff: { en: "Difference (A − B)", pl: "Różnica (A − B)" },
  ci_low: { en: "95 % interval: from", pl: "Przedział 95 %: od" },
  ci_high: { en: "95 % interval: to", pl: "Przedział 95 %: do" },
};
const STATISTIC_OPTIONS: EnumOption[] = [
  { value: "share_difference", en: "Difference of shares (Newcombe's hybrid score interval)", pl: "Różnica udziałów (przedział hybrydowy Newcombe'a)" },
  { value: "median_difference", en: "Difference of medians (seeded bootstrap)", pl: "Różnica median (bootstrap z ustalonym ziarnem)" },
];
const COMPARE_KIND_OPTIONS: EnumOption[] = [
  ...KIND_OPTIONS.filter((k) => k.value !== "numeric"),
  { value: "numeric", en: "Numeric (medians)", pl: "Liczbowe (mediany)" },
];
const COMPARE_CODES = ["a_count", "a_size", "a_share", "a_median", "a_q1", "a_q3", "b_count", "b_size", "b_share", "b_median", "b_q1", "b_q3", "diff", "ci_low", "ci_high"] as const;

/** A comparison as an export source: computed whole first (its errors answer before any byte), written as one page. */
export function compareExportSource(res: CompareCohortsResponse): ExportSource<CompareRow> {
  const rows = compareRows(res);
  const fields = res.fields.map((f) => f.field);
  const fieldOptions: EnumOption[] = fields.map((f) => ({ value: f, ...(fieldLabel(f) ?? { en: f, pl: f }) }));
  const columns: ExportColumn<CompareRow>[] = [
    col("field", (r) => r.field, fieldOptions),
    col("kind", (r) => r.kind, COMPARE_KIND_OPTIONS),
    {
      ...col<CompareRow>("value", (r) => r.value),
      labelled: (r, locale) => (r.value === null ? null : distributionValueLabel(r.field, r.value, locale)),
    },
    { code: "statistic", label: COMPARE_LABELS.statistic, value: (r) => r.statistic, options: STATISTIC_OPTIONS },
    ...COMPARE_CODES.map((k): ExportColumn<CompareRow> => ({ code: k, label: COMPARE_LABELS[k], value: (r) => r[k] })),
  ];
  return { columns, expectedRows: rows.length, pages: onePage(rows) };
}
