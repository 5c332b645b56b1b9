import { withRoute } from "@/lib/api/route";
import { EmbeddingsPutSchema, embeddingsSettings, switchEmbedder } from "@/lib/backend/settings/embeddings";

export const dynamic = "force-dynamic";

/**
 * GET /api/settings/embeddings → {active: {id, label, dimensions}, available: [...], reembed} for everyone signed in
 * (the re-embed's error text for admins only; others see "failed").
 */
export const GET = withRoute({ auth: "user" }, async ({ identity }) => embeddingsSettings({ admin: identity.role === "admin" }));

/**
 * PUT /api/settings/embeddings (admin) {id}: re-embed the index with another embedder in the background (progress in
 * `reembed`, polled); search answers from the old vectors until the new ones are complete. 422 EMBEDDER_UNAVAILABLE,
 * 409 REEMBED_IN_PROGRESS.
 */
export const PUT = withRoute({ auth: "admin", body: EmbeddingsPutSchema, maxBodyBytes: 4 * 1024 }, async ({ body }) => switchEmbedder(body.id));
