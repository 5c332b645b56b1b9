/**
 * /settings → Embeddings: which embedder the search index uses, which ones this server could use,
 * and the progress of a switch. Everyone signed in may see it; admins switch (PUT, re-embedding in the background:
 * ./reembed.ts).
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { availableEmbedderIds, createEmbedderById } from "@/lib/search/embedders";
import { getSearch } from "@/lib/search/engine";
import { reembedStatus, startReembed, type ReembedProgress } from "./reembed";

export interface EmbedderOption {
  id: string;
  label: string;
  dimensions: number | null;
}

/** GET /api/settings/embeddings. `reembed`: the current or last switch of this server process, or null. */
export interface EmbeddingsSettings {
  active: EmbedderOption;
  available: EmbedderOption[];
  reembed: ReembedProgress | null;
}

export const EmbeddingsPutSchema = z.strictObject({ id: safeText().trim().min(1).max(200) });

/**
 * The re-embed progress as a caller may see it: the failure text can carry hosts or provider messages, so only admins
 * get it; everyone else sees "failed" (null stays null), as health does (lib/backend/health/status.ts healthForCaller).
 */
function reembedForCaller(r: ReembedProgress | null, admin: boolean): ReembedProgress | null {
  if (!r || admin) return r;
  return { ...r, error: r.error ? "failed" : null };
}

/** GET /api/settings/embeddings for a signed-in caller (`admin`: whether to include the re-embed's error text). */
export function embeddingsSettings({ admin }: { admin: boolean }): EmbeddingsSettings {
  const e = getSearch().embedder;
  const active = { id: e.id, label: e.label, dimensions: e.dimensions };
  const available: EmbedderOption[] = availableEmbedderIds().map((id) => {
    if (id === active.id) return active;
    // Building an option is cheap (no call): a model embedder only creates its client.
    let built: ReturnType<typeof createEmbedderById> = null;
    try {
      built = createEmbedderById(id);
    } catch {
      built = null; // e.g. a model without EMBEDDING_DIMENSIONS: listed without dimensions
    }
    return built ? { id, label: built.label, dimensions: built.dimensions } : { id, label: id, dimensions: null };
  });
  if (!available.some((a) => a.id === active.id)) available.push(active);
  return { active, available, reembed: reembedForCaller(reembedStatus(), admin) };
}

/** PUT /api/settings/embeddings (admin): start the switch; answers the settings with the progress. */
export function switchEmbedder(id: string): EmbeddingsSettings {
  startReembed(id);
  return embeddingsSettings({ admin: true });
}
