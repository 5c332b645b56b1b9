import { withRoute } from "@/lib/api/route";
import { collectionFromFilter } from "@/lib/backend/collections/from-filter";
import { FromFilterRequestSchema } from "@/lib/schema/requests/structured";

export const dynamic = "force-dynamic";

/** POST /api/collections/from-filter (signed in) → 201 {collections: [{jurisdiction: null, collection, added_count}], total_matched, pair_id: null}. */
export const POST = withRoute({ auth: "user", body: FromFilterRequestSchema }, async ({ body, db }) =>
  Response.json(await collectionFromFilter(db, body), { status: 201 }),
);
