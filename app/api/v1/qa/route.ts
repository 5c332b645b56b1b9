import { withRoute } from "@/lib/api/route";
import { qaV1 } from "@/lib/backend/api-v1/assistants";
import { V1QaBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/** POST /api/v1/qa {question, context_filters?} → {answer, confidence, sources[{id, case_number, excerpt}], mode}. */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1QaBody }, async ({ body, req }) => qaV1(body, {}, req.signal));
