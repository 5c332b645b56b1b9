/**
 * GET /extractions/base-schema/facets: the top values of one any-of field among the judgments matching the current
 * filter (its own key left out, so a selection does not hide its alternatives), optionally narrowed by a substring,
 * plus each `include` value with its count in that cohort (0 when absent; zero-count values come last).
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import type { FacetsQuery } from "@/lib/schema/requests/structured";
import { filterFieldSpec, isFacetable } from "@/lib/schema/filter-fields";

export interface FacetsResponse {
  field: string;
  values: { value: string; count: number }[];
}

export async function facetValues(db: DbClient, q: FacetsQuery): Promise<FacetsResponse> {
  const spec = filterFieldSpec(q.field);
  if (!spec || !isFacetable(spec)) {
    throw new ApiError("VALIDATION_ERROR", `Field "${q.field}" has no facet values.`, {
      fields: [{ field: "field", message: "not an enum or tag field" }],
    });
  }
  const filters = q.filters;
  const { data, error } = await db.rpc("facet_extracted_values", {
    p_field: q.field,
    p_filters: jsonArg(filters),
    p_text_query: q.text_query?.trim() || null,
    p_query: q.q?.trim() || null,
    p_limit: q.limit ?? config().FACET_VALUES_LIMIT,
    p_include: q.include ?? null,
  });
  if (error) throw fromDatabaseError(error, "FACETS_FAILED");
  return { field: q.field, values: data.map((r) => ({ value: r.value, count: Number(r.count) })) };
}
