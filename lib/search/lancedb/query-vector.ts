/** The query's vector for a semantic request: given by the caller, or embedded (timed) with the engine's embedder. */
import { performance } from "node:perf_hooks";
import { SearchEngineError, SemanticUnavailableError } from "../errors";
import type { Embedder } from "../types";

/** The query's vector and how long embedding it took. */
export interface QueryVector {
  vec: Float32Array;
  ms: number;
}

/**
 * `indexDimensions`: the dimensions the live index was built with (null before the first build); another embedder
 * makes semantic search unavailable. A failing or slow provider is EMBEDDING_FAILED (503), not retried.
 */
export async function queryVector(
  embedder: Embedder,
  indexDimensions: number | null,
  req: { q: string; vector?: number[] },
): Promise<QueryVector> {
  const dim = embedder.dimensions;
  if (indexDimensions !== null && indexDimensions !== dim) throw new SemanticUnavailableError();
  if (req.vector) {
    if (req.vector.length !== dim) throw new SemanticUnavailableError("Query vector has the wrong dimensions");
    return { vec: Float32Array.from(req.vector), ms: 0 };
  }
  const t0 = performance.now();
  try {
    const v = await embedder.embedQuery(req.q);
    return { vec: Float32Array.from(v), ms: performance.now() - t0 };
  } catch (e) {
    throw new SearchEngineError("The query could not be embedded", { cause: e, code: "EMBEDDING_FAILED" });
  }
}
