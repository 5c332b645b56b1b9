import { withRoute } from "@/lib/api/route";
import { runSavedSearch, savedSearchId } from "@/lib/backend/saved-searches/saved-searches";

export const dynamic = "force-dynamic";

/**
 * POST /api/saved-searches/{id}/run → {saved_search, kind, results}: the first page of the current results from the
 * live search backend of its kind; bumps use_count and last_run_at.
 */
export const POST = withRoute({ auth: "user" }, async ({ params, identity }) => runSavedSearch(identity, savedSearchId(params.id)));
