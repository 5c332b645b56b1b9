import { withRoute } from "@/lib/api/route";
import { aggregateExtractedData } from "@/lib/backend/extractions/aggregate";
import { AggregateRequestSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/extractions/base-schema/aggregate: the web route's aggregate for server callers. As on the
 * filter path (D-17), collection_ids is refused (400 COLLECTION_IDS_NOT_ALLOWED) before any read, so the service
 * client only ever reads public judgment data.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: AggregateRequestSchema }, async ({ body, serviceDb }) =>
  aggregateExtractedData(serviceDb(), body),
);
