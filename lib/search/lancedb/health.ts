/** The LanceDB engine's health report: down when the index cannot be opened, degraded before a build or after an embedder change. */
import type { Embedder, EngineHealth } from "../types";
import { INDEX_LAYOUT } from "../index-settings";
import type { StoreState } from "./store";

function embedderInfo(embedder: Embedder): EngineHealth["embedder"] {
  return { id: embedder.id, label: embedder.label, dimensions: embedder.dimensions, registered: false };
}

/** The index could not be opened (`e` is why). */
export function downHealth(embedder: Embedder, e: unknown): EngineHealth {
  return {
    engine: "lancedb",
    status: "down",
    documents: 0,
    chunks: 0,
    embedder: embedderInfo(embedder),
    message: e instanceof Error ? e.message : "unavailable",
  };
}

/** The index is open: `state` is its live generation (null when nothing was built yet). */
export function openHealth(embedder: Embedder, state: StoreState | null, documents: number, chunks: number): EngineHealth {
  const registered = !!state && state.embedder.dimensions === embedder.dimensions;
  const h: EngineHealth = {
    engine: "lancedb",
    status: !state ? "degraded" : registered ? "ok" : "degraded",
    documents,
    chunks,
    embedder: { ...embedderInfo(embedder), registered },
  };
  if (state) h.layoutCurrent = state.layout === INDEX_LAYOUT;
  if (!state) h.message = "The search index has not been built yet";
  else if (!registered) h.message = "The index was built with a different embedder; run a full sync";
  return h;
}
