import { withRoute } from "@/lib/api/route";
import { filterDocuments } from "@/lib/backend/extractions/filter";
import { FilterRequestSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/**
 * POST /api/extractions/base-schema/filter → {results, total, limit, offset, has_more}. The web route needs a session
 * (D-17); the user-free path is the server API. collection_ids is refused (400 COLLECTION_IDS_NOT_ALLOWED, D-10).
 */
export const POST = withRoute({ auth: "user", body: FilterRequestSchema }, async ({ body, db }) =>
  filterDocuments(db, body),
);
