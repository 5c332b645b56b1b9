/**
 * A fake Meilisearch server for tests (ARCHITECTURE: "Mock only ... the Meilisearch server (its HTTP contract)").
 *
 * It is a real node:http server on 127.0.0.1 (random port) that implements the subset of Meilisearch's documented
 * HTTP API the adapter uses, with the documented response shapes:
 * - asynchronous writes answer 202 with a summarized task (`{taskUid, indexUid, status: "enqueued", type,
 *   enqueuedAt}`); `GET /tasks/:uid` moves the task to `processing` and then to `succeeded`/`failed`, applying
 *   its effect in enqueue order (like the real task queue). Nothing is applied until someone waits for it.
 * - error bodies are `{message, code, type, link}` with the documented codes (`index_not_found`,
 *   `invalid_search_filter`, `invalid_search_embedder`, `vector_embedding_error`, `invalid_vector_dimensions`, ...).
 * - search answers `hits` (with `_formatted`, `_rankingScore`), `query`, `processingTimeMs`, `limit`, `offset`,
 *   `estimatedTotalHits` (capped by `pagination.maxTotalHits`), `facetDistribution`, `facetStats`, and for hybrid
 *   queries `semanticHitCount`.
 *
 * Search is a small in-memory engine (tokens, prefix on the last word, typo tolerance by word length, ranking rules
 * words/typo/attribute/sort/exactness, `matchingStrategy` all/last, cosine similarity for vectors) — enough for
 * obvious-match conformance assertions, not a model of Meilisearch's exact scores. Filters are parsed by an
 * independent parser of the documented filter syntax, so whatever the adapter prints must be valid Meilisearch.
 *
 * Every request is recorded (method, path, query, JSON body) for exact-request assertions, and failures can be
 * injected: HTTP errors, slow answers, failed tasks, tasks that never finish.
 *
 * Layout: server.ts (HTTP, recording, injections, routes, tasks, indexes, settings, documents), search.ts (search and
 * similar), text.ts (matching, highlight, crop), filter.ts (the filter grammar), documents.ts (projection, vectors),
 * model.ts (state and wire types, settings defaults and PATCH merge).
 */
export { FakeMeilisearch } from "./server";
export { defaultSettings, type Injection, type MeiliErrorBody, type RecordedRequest, type TaskFailure } from "./model";
export { tokenize } from "./text";
export { __filterForTests } from "./filter";
