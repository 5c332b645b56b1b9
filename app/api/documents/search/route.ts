import { withRoute } from "@/lib/api/route";
import { ChunkSearchBody, searchChunks } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

/** POST /api/documents/search: semantic chunk search, sign-in required (D-19). */
export const POST = withRoute({ auth: "user", body: ChunkSearchBody, maxBodyBytes: 16_384 }, async ({ body }) =>
  searchChunks(body),
);
