import { afterResponse, registerDirectGet } from "@/lib/api/direct-routes";
import { meterGuestSearch } from "@/lib/api/guest-meter";
import { withRoute } from "@/lib/api/route";
import { SearchDocumentsQuery, mapSearchErrors, searchAnswerResponse, searchDocuments, type SearchDocumentsBody } from "@/lib/backend/search";
import { queueSearchRecord, searchMode } from "@/lib/backend/search-analytics";
import { searchEngineInProcess } from "@/lib/search/engine";

export const dynamic = "force-dynamic";

/** GET /api/search/documents: keyword/hybrid search; metered for guests (a failed search is not charged). */
export const GET = withRoute(
  {
    auth: "public",
    query: SearchDocumentsQuery,
    rateLimit: "search",
    // A keyword search reads only the embedded index and does not depend on the caller (the role matters only for
    // semantic_ratio): it runs while the limiter answers (withRoute's `early`, issue 20 item 3). Hybrid searches (the
    // embedder may be a remote API) and a Meilisearch engine (over the network) wait for the verdict.
    early: (query): Promise<SearchDocumentsBody> | null =>
      query.semantic_ratio === 0 && searchEngineInProcess() ? mapSearchErrors(() => searchDocuments(query, { role: "anonymous" })) : null,
  },
  async ({ query, identity, req, serviceDb, early }) => {
    // `early` is only started for a signed-in caller; one whose account turned out banned is a guest and is metered
    // before any search, as always.
    const { result, headers } = await meterGuestSearch(req, identity, async () =>
      (identity.role !== "anonymous" && early && (await early)) || mapSearchErrors(() => searchDocuments(query, identity)),
    );
    // One analytics row per search (its first page), queued after the answer is sent and written in batches.
    if (result.query && result.offset === 0) {
      afterResponse(() => queueSearchRecord(serviceDb, {
        query: result.query,
        hitCount: result.estimated_total,
        latencyMs: result.processing_time_ms + result.embedding_time_ms,
        mode: searchMode(result.semantic_ratio),
        userId: identity.userId,
      }));
    }
    return searchAnswerResponse(result, headers);
  },
);

// Served by our HTTP server without Next's router once this module has loaded (lib/api/direct-routes.ts, P-70).
registerDirectGet("/api/search/documents", GET);
