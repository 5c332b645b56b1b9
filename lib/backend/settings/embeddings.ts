/**
 * /settings → Embeddings, read side (issue 15 item 3): which embedder the search index uses and which ones this server
 * could use. Everyone signed in may see it. Switching (PUT, admin, re-embedding in the background) is not built yet.
 */
import { config } from "@/lib/config";
import { LOCAL_HASH_LABEL, LocalHashEmbedder } from "@/lib/llm/embedders";
import { llmConfigured } from "@/lib/llm/provider";
import { getSearch } from "@/lib/search/engine";

export interface EmbedderOption {
  id: string;
  label: string;
  dimensions: number | null;
}

/** GET /api/settings/embeddings. */
export interface EmbeddingsSettings {
  active: EmbedderOption;
  available: EmbedderOption[];
}

export function embeddingsSettings(): EmbeddingsSettings {
  const e = getSearch().embedder;
  const active = { id: e.id, label: e.label, dimensions: e.dimensions };
  const local = new LocalHashEmbedder();
  const available: EmbedderOption[] = [{ id: local.id, label: LOCAL_HASH_LABEL, dimensions: local.dimensions }];
  const model = config().EMBEDDING_MODEL;
  if (model && llmConfigured()) available.push(active.id === model ? active : { id: model, label: model, dimensions: null });
  if (!available.some((a) => a.id === active.id)) available.push(active);
  return { active, available };
}
