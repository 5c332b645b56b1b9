import { z } from "zod";
import { withRoute } from "@/lib/api/route";
import { searchHistory } from "@/lib/backend/search-analytics";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(config().SEARCH_HISTORY_LIMIT_MAX).default(config().SEARCH_HISTORY_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});

/** The signed-in user's own recent searches (spec: v1.3.0; rows limited to the caller by RLS). */
export const GET = withRoute({ auth: "user", query: Query }, async ({ db, query }) => {
  const results = await searchHistory(db, query);
  return { results, limit: query.limit, offset: query.offset };
});
