import { withRoute } from "@/lib/api/route";
import { notImplemented } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** GET /api/v1/schemas: custom extraction schemas are not built yet → 501 (x-not-implemented in the document). */
export const GET = withRoute({ auth: "public", apiKey: "required" }, () => notImplemented("Listing extraction schemas"));
