/**
 * Export routes' backend: each list's source (./lists.ts) written by the one writer (./stream.ts). Locale of the
 * labels: `lang` when given, else the interface locale (the locale cookie, then Accept-Language), as pages pick it.
 */
import type { z } from "zod";
import { SearchDocumentsQuery } from "@/lib/backend/search";
import type { Identity } from "@/lib/backend/identity";
import type { DbClient } from "@/lib/supabase/db-client";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locale";
import { exportParams, type AggregateExportQuery, type CompareExportRequest, type CollectionExportQuery, type ExtractionRowsExportQuery } from "@/lib/schema/requests/exports";
import type { AggregateRequest } from "@/lib/schema/requests/structured";
import { collectionId } from "@/lib/backend/collections/collections";
import { compareCohorts, type CollectionOwnership } from "@/lib/backend/cohorts/compare";
import { aggregateExportSource, collectionMembersExportSource, compareExportSource, extractionRowsExportSource, searchExportSource } from "./lists";
import { exportResponse } from "./stream";

export { EXPORT_FORMATS, HEADER_MODES, type ExportFormat, type HeaderMode } from "./stream";

/** GET /api/search/export: the search route's own parameters (less paging and facets), plus the export's. */
export const SearchExportQuery = SearchDocumentsQuery.omit({ limit: true, offset: true, facets: true }).extend(exportParams);
export type SearchExportParams = z.infer<typeof SearchExportQuery>;

interface RequestLike {
  headers: Headers;
  cookies: { get(name: string): { value: string } | undefined };
}

export function exportLocale(req: RequestLike, lang: Locale | undefined): Locale {
  if (lang) return lang;
  const cookie = req.cookies.get(LOCALE_COOKIE)?.value;
  if (cookie === "en" || cookie === "pl") return cookie;
  return /^\s*pl\b/i.test(req.headers.get("accept-language") ?? "") ? "pl" : "en";
}

const stamp = () => new Date().toISOString().slice(0, 10);

export async function exportSearch(query: SearchExportParams, identity: Pick<Identity, "role">, locale: Locale): Promise<Response> {
  const { format, headers, lang: _lang, ...search } = query;
  const source = await searchExportSource(search, identity);
  return exportResponse(source, { format, headers, locale, fileName: `search-${search.q || "all"}-${stamp()}`, sheet: "search" });
}

export async function exportExtractionRows(db: DbClient, query: z.infer<typeof ExtractionRowsExportQuery>, locale: Locale): Promise<Response> {
  const source = await extractionRowsExportSource(db, { filters: query.filters ?? {}, text_query: query.text_query?.trim() || null });
  return exportResponse(source, { format: query.format, headers: query.headers, locale, fileName: `extractions-${stamp()}`, sheet: "judgments" });
}

export async function exportCollection(db: DbClient, rawId: string | undefined, query: z.infer<typeof CollectionExportQuery>, locale: Locale): Promise<Response> {
  const source = await collectionMembersExportSource(db, collectionId(rawId), query.preset);
  return exportResponse(source, { format: query.format, headers: query.headers, locale, fileName: source.name, sheet: "collection" });
}

export async function exportAggregate(db: DbClient, query: z.infer<typeof AggregateExportQuery>, locale: Locale): Promise<Response> {
  // The aggregate's own checks (aggregable fields, a sample needs a seed) run in aggregateExtractedData.
  const fields = query.fields?.split(",").map((f) => f.trim()).filter(Boolean);
  const req: AggregateRequest = {
    filters: query.filters ?? {},
    text_query: query.text_query ?? null,
    fields: fields?.length ? fields : null,
    sample_size: query.sample_size ?? null,
    seed: query.seed ?? null,
    top_n: query.top_n,
  };
  const source = await aggregateExportSource(db, req);
  return exportResponse(source, { format: query.format, headers: query.headers, locale, fileName: `aggregate-${stamp()}`, sheet: "aggregate" });
}

/** A comparison of two cohorts (the compare route's answer, its checks and errors included) as a file. */
export async function exportComparison(db: DbClient, body: CompareExportRequest, locale: Locale, owner?: CollectionOwnership): Promise<Response> {
  const { format, headers, lang: _lang, ...req } = body;
  const source = compareExportSource(await compareCohorts(db, req, owner));
  return exportResponse(source, { format, headers, locale, fileName: `cohort-comparison-${stamp()}`, sheet: "comparison" });
}
