import { withRoute } from "@/lib/api/route";
import { llmStatus } from "@/lib/llm/provider";

export const dynamic = "force-dynamic";

/** Whether LLM features are available, so the UI can show or hide them: `{configured, model}`; never the key or address. */
export const GET = withRoute({ auth: "public" }, () => llmStatus());
