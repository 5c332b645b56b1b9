import { withRoute } from "@/lib/api/route";
import { histogram } from "@/lib/backend/extractions/histogram";
import { HistogramQuerySchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** GET /api/extractions/base-schema/histogram?field=&filters=&text_query= (signed in): numeric buckets or years. */
export const GET = withRoute({ auth: "user", query: HistogramQuerySchema }, async ({ query, db }) => histogram(db, query));
