import { meterGuestSearch } from "@/lib/api/guest-meter";
import { withRoute } from "@/lib/api/route";
import { SearchDocumentsQuery, mapSearchErrors, searchDocuments } from "@/lib/backend/search";

export const dynamic = "force-dynamic";

/** GET /api/search/documents: keyword/hybrid search; metered for guests (a failed search is not charged). */
export const GET = withRoute(
  { auth: "public", query: SearchDocumentsQuery, rateLimit: "search" },
  async ({ query, identity, req }) => {
    const { result, headers } = await meterGuestSearch(req, identity, () =>
      mapSearchErrors(() => searchDocuments(query, identity)),
    );
    return Response.json(result, { headers });
  },
);
