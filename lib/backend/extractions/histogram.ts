/**
 * GET /extractions/base-schema/histogram: the numeric buckets or years of one field over the current filter, i.e. the
 * aggregate of that single field (same cohort, same bucket rules).
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError } from "@/lib/errors";
import type { HistogramQuery } from "@/lib/schema/requests/structured";
import { aggregateExtractedData } from "./aggregate";
import { aggregateKind, filterFieldSpec } from "@/lib/schema/filter-fields";

export async function histogram(db: DbClient, q: HistogramQuery) {
  const spec = filterFieldSpec(q.field);
  if (!spec || !spec.aggregable || aggregateKind(spec.dbType) === "categorical") {
    throw new ApiError("VALIDATION_ERROR", `Field "${q.field}" has no histogram (numeric and date fields only).`, {
      fields: [{ field: "field", message: "not a numeric or date field" }],
    });
  }
  const result = await aggregateExtractedData(db, { filters: q.filters, text_query: q.text_query, fields: [q.field], top_n: 20 });
  return { field: q.field, total: result.total, ...result.fields[q.field] };
}
