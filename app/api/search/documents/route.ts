import { after } from "next/server";
import { meterGuestSearch } from "@/lib/api/guest-meter";
import { withRoute } from "@/lib/api/route";
import { SearchDocumentsQuery, mapSearchErrors, searchAnswerResponse, searchDocuments } from "@/lib/backend/search";
import { queueSearchRecord, searchMode, searchParamsRecord } from "@/lib/backend/search-analytics";

export const dynamic = "force-dynamic";

/** GET /api/search/documents: keyword/hybrid search; metered for guests (a failed search is not charged). */
export const GET = withRoute({ auth: "public", query: SearchDocumentsQuery, rateLimit: "search" }, async ({ query, identity, req, serviceDb }) => {
  const { result, headers } = await meterGuestSearch(req, identity, query, () => mapSearchErrors(() => searchDocuments(query, identity)));
  // One analytics row per search (its first page), queued after the answer is sent and written in batches.
  if (result.query && result.offset === 0) {
    after(() =>
      queueSearchRecord(serviceDb, {
        query: result.query,
        hitCount: result.estimated_total,
        latencyMs: result.processing_time_ms + result.embedding_time_ms,
        mode: searchMode(result.semantic_ratio),
        userId: identity.userId,
        params: searchParamsRecord(query),
      }),
    );
  }
  return searchAnswerResponse(result, headers);
});
