import { after } from "next/server";
import { withRoute } from "@/lib/api/route";
import { searchDocumentsV1 } from "@/lib/backend/api-v1/documents";
import { queueSearchRecord, searchMode } from "@/lib/backend/search-analytics";
import { V1SearchBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/documents/search: the web search in the reference shape, as the key's user. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1SearchBody }, async ({ body, identity, serviceDb }) => {
  const { response, raw } = await searchDocumentsV1(body, identity);
  // One analytics row per first page, as the web route records (statistics count API searches too).
  if (raw.offset === 0) {
    after(() =>
      queueSearchRecord(serviceDb, {
        query: raw.query,
        hitCount: raw.estimated_total,
        latencyMs: raw.processing_time_ms + raw.embedding_time_ms,
        mode: searchMode(raw.semantic_ratio),
        userId: identity.userId,
      }),
    );
  }
  return response;
});
