import { withRoute } from "@/lib/api/route";
import { embeddingsSettings } from "@/lib/backend/settings/embeddings";

export const dynamic = "force-dynamic";

/** GET /api/settings/embeddings → {active: {id, label, dimensions}, available: [...]} for everyone signed in. */
export const GET = withRoute({ auth: "user" }, async () => embeddingsSettings());
