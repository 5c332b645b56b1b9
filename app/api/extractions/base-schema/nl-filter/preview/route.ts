import { withRoute } from "@/lib/api/route";
import { NlPreviewRequestSchema, nlPreview } from "@/lib/backend/extractions/nl-preview";

export const dynamic = "force-dynamic";

/**
 * POST /api/extractions/base-schema/nl-filter/preview {filters, text_query?} → {total, without}: the count of a proposed
 * filter before it is applied and, when it is 0, the count with each chip dropped. Signed-in users, like the filter
 * route; a bad filter is 422 FILTER_INVALID.
 */
export const POST = withRoute({ auth: "user", body: NlPreviewRequestSchema }, async ({ body, db }) => nlPreview(db, body));
