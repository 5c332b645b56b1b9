/**
 * GET /extractions/base-schema/facets: the top values of one any-of field among the judgments matching the current
 * filter (its own key left out, so a selection does not hide its alternatives), optionally narrowed by a substring.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import type { FacetsQuery } from "@/lib/schema/requests/structured";
import { rpcError } from "./db-errors";
import { filterFieldSpec, isFacetable } from "./filter-fields";
import { parseFilters, refuseCollectionIds } from "./filters";

export interface FacetsResponse {
  field: string;
  values: { value: string; count: number }[];
}

export async function facetValues(db: SupabaseClient, q: FacetsQuery): Promise<FacetsResponse> {
  const spec = filterFieldSpec(q.field);
  if (!spec || !isFacetable(spec)) {
    throw new ApiError(422, "VALIDATION_ERROR", `Field "${q.field}" has no facet values.`, {
      fields: [{ field: "field", message: "not an enum or tag field" }],
    });
  }
  refuseCollectionIds(q.filters);
  const filters = parseFilters(q.filters);
  const { data, error } = await db.rpc("facet_extracted_values", {
    p_field: q.field,
    p_filters: filters,
    p_text_query: q.text_query?.trim() || null,
    p_query: q.q?.trim() || null,
    p_limit: q.limit ?? config().FACET_VALUES_LIMIT,
  });
  if (error) throw rpcError(error, "FACETS_FAILED");
  const rows = (data ?? []) as { value: string; count: number | string }[];
  return { field: q.field, values: rows.map((r) => ({ value: r.value, count: Number(r.count) })) };
}
