import { withRoute } from "@/lib/api/route";
import { llmStatus } from "@/lib/llm/provider";

export const dynamic = "force-dynamic";

/**
 * Whether LLM features are available, so the UI can show or hide them. Anonymous callers get only `{configured}`;
 * the model name is for signed-in users (security review L13: which model runs is nobody else's business). Never the
 * key or the provider's address.
 */
export const GET = withRoute({ auth: "public" }, ({ identity }) => {
  const status = llmStatus();
  return identity.role === "anonymous" ? { configured: status.configured } : status;
});
