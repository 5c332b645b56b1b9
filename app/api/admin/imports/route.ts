import { withRoute } from "@/lib/api/route";
import { listImportRuns } from "@/lib/backend/imports/runs";
import { receiveImportUpload } from "@/lib/backend/imports/upload";
import { AdminImportRunsQuerySchema, AdminImportUploadQuerySchema } from "@/lib/schema/requests/admin";

export const dynamic = "force-dynamic";

/** GET /api/admin/imports?page=&limit= → {items, total, page, per_page, pages}: importer runs newest first (admins only). */
export const GET = withRoute({ auth: "admin", query: AdminImportRunsQuerySchema }, async ({ db, query }) => listImportRuns(db, query));

/**
 * POST /api/admin/imports?source=auto|saos|fcl|juddges|jsonl&name=FILE, body: the file (application/octet-stream)
 * → 202 with the queued run. Past IMPORT_UPLOAD_MAX_BYTES: 413 BODY_TOO_LARGE and nothing kept (docs/admin.md).
 */
export const POST = withRoute({ auth: "admin", query: AdminImportUploadQuerySchema, rawBody: true }, async ({ db, req, query }) =>
  Response.json(await receiveImportUpload(db, { body: req.body, contentLength: req.headers.get("content-length") }, query), { status: 202 }),
);
