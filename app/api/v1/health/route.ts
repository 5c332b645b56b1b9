import { withRoute } from "@/lib/api/route";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthStatus } from "@/lib/backend/health/status";
import { llmConfigured } from "@/lib/llm/provider";

export const dynamic = "force-dynamic";

/**
 * The reference API's health shape (D-20: only under /api/v1), for server callers holding an API key:
 * `{status, version, commit, built_at, timestamp, services: {database, cache, llm_provider}}`, each service a status string.
 */
export const GET = withRoute({ auth: "public", apiKey: "required" }, async () => {
  const h = await healthStatus(defaultChecks());
  return {
    status: h.status,
    version: h.version,
    commit: h.commit,
    built_at: h.built_at,
    timestamp: h.timestamp,
    services: {
      database: h.dependencies.database.status,
      cache: h.dependencies.cache.status,
      llm_provider: llmConfigured() ? "configured" : "not_configured",
    },
  };
});
