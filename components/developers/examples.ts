/** Example bodies so a first request works as it is. */
export const EXAMPLES: Record<string, unknown> = {
  "/api/v1/documents/search": { query: "burglary sentence", search_type: "hybrid", limit: 5 },
  "/api/v1/search/semantic": { query: "self-defence", limit: 5, min_similarity: 0 },
  "/api/v1/search/facets": { filters: { jurisdiction: "UK" } },
  "/api/v1/documents/{id}/similar": { limit: 5 },
  "/api/v1/collections": { name: "From the API", description: "", document_ids: [], tags: [] },
  "/api/v1/extractions/base-schema/filter": { filters: {}, limit: 5 },
  "/api/v1/extractions/base-schema/aggregate": { filters: {}, fields: ["base_appellant"] },
  "/api/v1/feedback": { type: "search", rating: 5, comment: "", context: { query: "burglary" } },
  "/api/v1/chat": { message: "What sentences follow a burglary appeal?", stream: false },
  "/api/v1/qa": { question: "What is the usual sentence for burglary?" },
  "/api/v1/schemas/generate": { description: "Sentence length and mitigating factors" },
};

/** A first GET with a useful query string. */
export const GET_EXAMPLES: Record<string, string> = { "/api/v1/documents": "/api/v1/documents?limit=5&jurisdiction=UK" };
