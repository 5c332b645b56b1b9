import { withRoute } from "@/lib/api/route";
import { generateSchemaForCaller } from "@/lib/backend/schemas/generate";
import { generateSchemaRequest } from "@/lib/schema/requests/schemas";

export const dynamic = "force-dynamic";

/**
 * POST /api/schemas/generate {description, example_document_id?} → {schema (JSON Schema), name, description, fields,
 * mode: "model"}: a draft, not saved. Model mode only: 503 LLM_NOT_CONFIGURED without a model (fail closed).
 */
export const POST = withRoute({ auth: "user", body: generateSchemaRequest(), maxBodyBytes: 16 * 1024 }, async ({ body, identity }) =>
  generateSchemaForCaller(body, identity),
);
