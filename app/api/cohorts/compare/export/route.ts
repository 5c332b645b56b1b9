import { withRoute } from "@/lib/api/route";
import { exportComparison, exportLocale } from "@/lib/backend/exports";
import { CompareExportSchema } from "@/lib/schema/requests/exports";

export const dynamic = "force-dynamic";

/**
 * POST /api/cohorts/compare/export {a, b, fields, top_n?, seed?, format?, headers?, lang?} (signed in): the comparison
 * POST /api/cohorts/compare answers, as CSV, XLSX or JSONL, one row per field and value (a numeric field: its medians).
 * The same checks: another user's collection is 404 COLLECTION_NOT_FOUND, a field that is not aggregable 422.
 */
export const POST = withRoute({ auth: "user", body: CompareExportSchema }, async ({ body, db, req }) => exportComparison(db, body, exportLocale(req, body.lang)));
