import { withRoute } from "@/lib/api/route";
import { aggregateExtractedData } from "@/lib/backend/extractions/aggregate";
import { AggregateRequestSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * POST /api/extractions/base-schema/aggregate (signed in) → the aggregate result unchanged. 422 FIELD_NOT_AGGREGABLE
 * names the field (or seed), 500 AGGREGATE_FAILED, 503 DATABASE_UNAVAILABLE; the cohort is corpus-wide (D-29).
 */
export const POST = withRoute({ auth: "user", body: AggregateRequestSchema }, async ({ body, db }) =>
  aggregateExtractedData(db, body),
);
