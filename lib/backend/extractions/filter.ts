/**
 * POST /extractions/base-schema/filter: one page of the judgments matching a filter and text query, through
 * filter_documents_by_extracted_data (the thin wrapper over the one matching predicate).
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { isJsonObject, jsonArg, type JsonObject } from "@/lib/supabase/json";
import type { FilterRequest } from "@/lib/schema/requests/structured";
import { fromDatabaseError } from "@/lib/errors";

export interface FilterResultRow {
  id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string;
  decision_date: string | null;
  extracted_data: JsonObject;
}

export interface FilterResponse {
  results: FilterResultRow[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

type Row = FilterResultRow & { total_count: number };

async function callPage(db: DbClient, filters: Record<string, unknown>, textQuery: string | null, limit: number, offset: number): Promise<Row[]> {
  const { data, error } = await db.rpc("filter_documents_by_extracted_data", {
    p_filters: jsonArg(filters),
    p_text_query: textQuery,
    p_limit: limit,
    p_offset: offset,
  });
  if (error) throw fromDatabaseError(error, "FILTER_FAILED");
  // extracted_data is a jsonb object by construction of the SQL (jsonb_build_object); narrowed, not cast.
  return data.map((r) => ({ ...r, extracted_data: isJsonObject(r.extracted_data) ? r.extracted_data : {} }));
}

export async function filterDocuments(db: DbClient, req: FilterRequest): Promise<FilterResponse> {
  const filters = req.filters;
  const textQuery = req.text_query?.trim() || null;
  const rows = await callPage(db, filters, textQuery, req.limit, req.offset);
  // Past the last page the function returns no row to carry total_count: ask for the first row to learn it.
  const total = rows.length ? Number(rows[0].total_count) : req.offset > 0 ? Number((await callPage(db, filters, textQuery, 1, 0))[0]?.total_count ?? 0) : 0;
  return {
    results: rows.map(({ total_count: _total, ...r }) => r),
    total,
    limit: req.limit,
    offset: req.offset,
    has_more: req.offset + rows.length < total,
  };
}
