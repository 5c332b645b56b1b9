/**
 * Errors of the search layer. Route handlers map them to HTTP statuses (lib/backend/search.ts):
 * - `FilterSyntaxError` / `FilterAttributeError` → 422 FILTER_INVALID (one filter error code; the attribute
 *   as `field`, a syntax error with its position)
 * - `DocumentNotFoundError` → 404
 * - `SemanticUnavailableError` → 502 (spec: Errors, semantic_ratio > 0 while the embedder is not registered)
 * - `SearchEngineError` → the status of its code in lib/errors (503; 504 for UPSTREAM_TIMEOUT, D-31); the guest meter
 *   does not charge a search that failed this way.
 */
import type { ErrorCode } from "@/lib/errors";

/** The catalogue codes a search engine failure can carry. */
export type SearchEngineErrorCode = Extract<
  ErrorCode,
  | "SEARCH_ENGINE_UNAVAILABLE"
  | "SEARCH_ENGINE_ERROR"
  | "SEARCH_SETTINGS_MISMATCH"
  | "EMBEDDING_FAILED"
  | "SYNC_SESSION_CLOSED"
  | "UPSTREAM_TIMEOUT"
  | "SEMANTIC_UNAVAILABLE"
>;

export class SearchEngineError extends Error {
  readonly code: SearchEngineErrorCode;
  constructor(message: string, options?: { cause?: unknown; code?: SearchEngineErrorCode }) {
    super(message, { cause: options?.cause });
    this.name = "SearchEngineError";
    this.code = options?.code ?? "SEARCH_ENGINE_UNAVAILABLE";
  }
}

/** semantic_ratio > 0 but the engine cannot do vector search (embedder not registered): HTTP 502. */
export class SemanticUnavailableError extends SearchEngineError {
  constructor(message = "Semantic search is unavailable: the embedder is not registered on the index") {
    super(message, { code: "SEMANTIC_UNAVAILABLE" });
    this.name = "SemanticUnavailableError";
  }
}

export class DocumentNotFoundError extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`Judgment ${id} not found`);
    this.name = "DocumentNotFoundError";
    this.id = id;
  }
}

/** A filter expression that does not parse; `position` is the 0-based character offset of the problem. */
export class FilterSyntaxError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = "FilterSyntaxError";
    this.position = position;
  }
}

/** A filter that names an attribute outside the filterable list (or sorts on a non-sortable one). */
export class FilterAttributeError extends Error {
  readonly attribute: string;
  readonly position: number;
  constructor(attribute: string, position: number, kind: "filterable" | "sortable" = "filterable") {
    super(`Attribute \`${attribute}\` is not ${kind}`);
    this.name = "FilterAttributeError";
    this.attribute = attribute;
    this.position = position;
  }
}
