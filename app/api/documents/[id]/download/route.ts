import { withRoute } from "@/lib/api/route";
import { DownloadQuery, documentDownload } from "@/lib/backend/document-files";

export const dynamic = "force-dynamic";

/** GET /api/documents/{id}/download?format=html|txt: the judgment as a file, read as the judgment page reads it. */
export const GET = withRoute({ auth: "public", query: DownloadQuery }, async ({ params, identity, query }) => documentDownload(params.id, identity, query.format));
