import { withRoute } from "@/lib/api/route";
import { generateSchemaForCaller } from "@/lib/backend/schemas/generate";
import { V1GenerateSchemaBody } from "@/lib/schema/requests/api-v1";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/schemas/generate {description, example_document_id?} → {schema (JSON Schema), name, description, fields,
 * mode: "model"}: the web generator's draft, not stored. Model mode only: 503 LLM_NOT_CONFIGURED without a model.
 * The example judgment is read with the caller's rights, like the judgment of GET /api/v1/documents/{id}.
 */
export const POST = withRoute({ auth: "public", apiKey: "required", body: V1GenerateSchemaBody, maxBodyBytes: 16 * 1024 }, async ({ body, identity }) =>
  generateSchemaForCaller(body, identity),
);
