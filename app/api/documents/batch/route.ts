import { withRoute } from "@/lib/api/route";
import { BatchBody, documentsBatch } from "@/lib/backend/documents";

export const dynamic = "force-dynamic";

/** POST /api/documents/batch: up to MAX_BATCH_DOCUMENT_IDS (100) judgments, sign-in required. */
export const POST = withRoute({ auth: "user", body: BatchBody }, async ({ body, identity }) =>
  documentsBatch(body, identity),
);
