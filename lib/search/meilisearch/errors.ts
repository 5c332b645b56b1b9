/**
 * Meilisearch client errors → the search layer's typed errors (../errors.ts), which the HTTP layer maps to statuses:
 * - embedder missing on the index (`invalid_search_embedder`; `invalid_embedder` before v1.13; `invalid_similar_embedder`)
 *   or sized differently (`invalid_vector_dimensions`) while semantic_ratio > 0 → `SemanticUnavailableError` (502,
 *   spec: Errors).
 * - request timeout → `SearchEngineError` code `UPSTREAM_TIMEOUT` (D-31: 504).
 * - anything else (network, 5xx, unexpected 4xx) → `SearchEngineError` (503), message without secrets or URLs.
 */
import {
  MeilisearchApiError,
  MeilisearchError,
  MeilisearchRequestError,
  MeilisearchRequestTimeOutError,
  MeilisearchTaskTimeOutError,
} from "meilisearch";
import { SearchEngineError, SemanticUnavailableError } from "../errors";

/** Error codes meaning "the embedder named in the request is not registered on the index". */
export const EMBEDDER_MISSING_CODES = new Set(["invalid_search_embedder", "invalid_embedder", "invalid_similar_embedder"]);

/** The documented error body of a failed API call, when there is one. */
export function meiliErrorCode(e: unknown): string | undefined {
  return e instanceof MeilisearchApiError ? e.cause?.code : undefined;
}

function isTimeout(e: unknown): boolean {
  return (
    e instanceof MeilisearchTaskTimeOutError ||
    (e instanceof MeilisearchRequestError && e.cause instanceof MeilisearchRequestTimeOutError)
  );
}

/**
 * Map an error thrown by the client. `semantic` marks a request that asked for vector search, so an embedder
 * problem becomes the spec's 502 rather than a generic outage.
 */
export function mapMeiliError(e: unknown, what: string, options: { semantic?: boolean } = {}): Error {
  if (e instanceof SearchEngineError) return e;
  const code = meiliErrorCode(e);
  if (options.semantic && code && (EMBEDDER_MISSING_CODES.has(code) || code === "invalid_vector_dimensions")) {
    return new SemanticUnavailableError(
      code === "invalid_vector_dimensions"
        ? "Semantic search is unavailable: the embedder registered on the index has other dimensions than the configured embedder"
        : undefined,
    );
  }
  if (isTimeout(e)) {
    return new SearchEngineError(`Meilisearch did not answer in time (${what})`, { cause: e, code: "UPSTREAM_TIMEOUT" });
  }
  if (e instanceof MeilisearchApiError) {
    // The documented error message names the problem (attribute, index); it carries no secret.
    const detail = e.cause ? `${e.cause.code}: ${e.cause.message}` : `HTTP ${e.response.status}`;
    return new SearchEngineError(`Meilisearch ${what} failed (${detail})`, { cause: e, code: "SEARCH_ENGINE_ERROR" });
  }
  if (e instanceof MeilisearchError) {
    // Request errors carry the URL in their message; keep it out of ours (the host is configuration, not news).
    return new SearchEngineError(`Meilisearch is unreachable (${what})`, { cause: e });
  }
  return new SearchEngineError(`Meilisearch ${what} failed`, { cause: e });
}

/** A task that finished as `failed` or `canceled`: its documented error, as a SearchEngineError. */
export function taskFailed(what: string, task: { status: string; error: { code: string; message: string } | null }): SearchEngineError {
  const detail = task.error ? `${task.error.code}: ${task.error.message}` : task.status;
  return new SearchEngineError(`Meilisearch task ${what} ${task.status} (${detail})`, { code: "SEARCH_ENGINE_ERROR" });
}
