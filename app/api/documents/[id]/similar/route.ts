import { withRoute } from "@/lib/api/route";
import { SimilarQuery, similarDocuments } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

export const GET = withRoute({ auth: "public", query: SimilarQuery }, async ({ params, query }) =>
  similarDocuments(params.id, query),
);
