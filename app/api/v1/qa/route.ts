import { withRoute } from "@/lib/api/route";
import { notImplemented } from "@/lib/api/v1";
import { V1QaBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/qa: question answering is not built yet → 501 after the body is checked. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1QaBody }, () => notImplemented("Question answering"));
