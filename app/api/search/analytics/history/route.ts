import { z } from "zod";
import { withRoute } from "@/lib/api/route";
import { clearSearchHistory, searchHistoryPage } from "@/lib/backend/search-analytics";
import { config } from "@/lib/config";
import { pageOffsetParam } from "@/lib/schema/requests/paging";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(config().SEARCH_HISTORY_LIMIT_MAX).default(config().SEARCH_HISTORY_LIMIT_DEFAULT),
  // At most 10,000 like the other pages (security review L2: an offset past int4 reached SQL and answered 500).
  offset: pageOffsetParam(),
});

/** The signed-in user's own recent searches (spec: v1.3.0; rows limited to the caller by RLS), with their total. */
export const GET = withRoute({ auth: "user", query: Query }, async ({ db, query }) => searchHistoryPage(db, query));

/** DELETE /api/search/analytics/history → {deleted}: the caller's whole search history. */
export const DELETE = withRoute({ auth: "user" }, async ({ db }) => clearSearchHistory(db));
