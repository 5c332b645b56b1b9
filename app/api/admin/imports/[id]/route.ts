import { withRoute } from "@/lib/api/route";
import { getImportRun } from "@/lib/backend/imports/runs";

export const dynamic = "force-dynamic";

/** GET /api/admin/imports/{id} → the run with its rejected records (file, record or line, reason); 404 IMPORT_RUN_NOT_FOUND. */
export const GET = withRoute({ auth: "admin" }, async ({ db, params }) => getImportRun(db, params.id));
