import { withRoute } from "@/lib/api/route";
import { exportAggregate, exportLocale } from "@/lib/backend/exports";
import { AggregateExportQuery } from "@/lib/schema/requests/exports";

export const dynamic = "force-dynamic";

/**
 * GET /api/extractions/base-schema/aggregate/export?filters=<json>&fields=a,b&sample_size=&seed=&top_n=&format=&headers=:
 * the distributions the aggregate route answers, one row per field and value (or numeric bucket). Signed-in.
 */
export const GET = withRoute({ auth: "user", query: AggregateExportQuery }, async ({ query, db, req }) =>
  exportAggregate(db, query, exportLocale(req, query.lang)),
);
