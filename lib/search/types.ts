/**
 * The `SearchEngine` port (ARCHITECTURE: "Text and vector retrieval live in the search engine"). Two adapters
 * implement it: `lancedb/` (embedded default) and `meilisearch/` (production). Both must pass
 * `tests/search-conformance/suite.ts`. Request/response shapes follow Meilisearch's vocabulary (camelCase,
 * `_formatted`-style highlights) so the Meilisearch adapter maps them almost one to one.
 *
 * Conventions every adapter honours:
 * - Filters arrive as a parsed, validated AST (`FilterNode`), never as a raw string.
 * - Hits omit null-valued keys and never include `full_text` (spec: Judgment index roles, displayed).
 * - `estimatedTotal` is capped at `SEARCH_TOTAL_CAP` (1000, spec: Limits "Reported hits").
 * - Highlights wrap matched words in `<mark>`/`</mark>`; text is HTML-escaped (&, <, >, ") before marking.
 * - Engine failures throw `SearchEngineError` (errors.ts) so callers (guest meter) can avoid charging.
 */
import type { FilterNode } from "./filter/ast";
import type { EncodedChunks } from "./chunk-columns";
import type { EncodedDocs } from "./encoded-docs";

export type { FilterNode } from "./filter/ast";

/** A judge as stored in `judgments.judges` and the index. */
export interface JudgeEntry {
  name: string;
  role?: string | null;
}

/** One non-null value of an index document. */
export type IndexValue = string | number | boolean | string[] | JudgeEntry[];

/**
 * One index document per judgment (spec: Judgment, database row and search-index document). Built by
 * `document.ts` from a judgments row: core fields, searchable/filterable base_ fields and epoch-second twins
 * (`decision_date_ts`, `base_date_of_appeal_court_judgment_ts`, `base_extracted_at_ts`).
 *
 * Nulls: a FILTERABLE attribute whose value is null is stored as an explicit `null`, so `IS NULL` / `IS NOT NULL`
 * can test it (spec: "use IS NULL / IS NOT NULL in filters to test presence"; Meilisearch matches IS NULL only on an
 * explicit null, and EXISTS is true for a null-valued key). Any other null-valued key is omitted. Hits never carry
 * null-valued keys (spec: "null-valued keys are omitted from hits"): adapters strip them.
 */
export interface IndexDocument {
  id: string;
  [field: string]: IndexValue | null;
}

/** A displayed hit document: displayed (or requested) attributes only, null-valued keys omitted. */
export interface HitDocument {
  id: string;
  [field: string]: IndexValue;
}

/** A passage of a judgment's full text for semantic chunk search (~400 tokens, 100 overlap). */
export interface ChunkRecord {
  /** `${judgmentId}:${position}` */
  id: string;
  judgmentId: string;
  /** 0-based chunk position within the judgment. */
  position: number;
  text: string;
  /** Index of the first token of this chunk within the judgment's full text. */
  tokenStart: number;
  /** Filterable copies of the judgment's fields so chunk search can be filtered like document search. */
  jurisdiction?: string;
  decision_date_ts?: number;
  vector: Vector;
}

/** An embedding as sync hands it over: a JS array, or a view into a batch's one array (batch-pool.ts). */
export type Vector = number[] | Float64Array;

/** A document plus its embedding, as handed to the engine by sync. */
export interface IndexDocumentWithVector {
  document: IndexDocument;
  /** Embedding of `embeddingText(document)`; length = embedder dimensions. */
  vector: Vector;
}

/** One batch of the sync stream. */
export interface IndexBatch {
  documents: IndexDocumentWithVector[];
  /** Chunks of the same judgments; an upsert replaces every chunk of each judgment in `documents`. */
  chunks: ChunkRecord[];
  /**
   * The same chunks column by column, when the batch was built in a worker thread (batch-pool.ts): `chunks` is then
   * decoded from it on first read, and an engine that can write the columns as they are (LanceDB) never reads it.
   */
  encodedChunks?: EncodedChunks;
  /**
   * The documents encoded for the embedded engine (encoded-docs.ts), when the batch was built in a worker thread:
   * `documents` is then decoded from it on first read.
   */
  encodedDocs?: EncodedDocs;
}

export type SortDirection = "asc" | "desc";

export interface SortSpec {
  attribute: string;
  direction: SortDirection;
}

/** How many query words must match (Meilisearch `matchingStrategy`). */
export type MatchingStrategy = "all" | "last";

export interface SearchDocumentsRequest {
  /**
   * Free-text query; "" = placeholder search (all documents, filter/sort only). The port's syntax (written by
   * query-syntax.ts from what users type): words, `"exact phrase"` (adjacent, in order, no typos), `-word` and
   * `-"phrase"` (documents holding them are left out), `a OR b` between two words, prefix on the last word.
   */
  q: string;
  /** Words that must all occur in one attribute (query-syntax.ts `court:`, `judge:`, `case:`). */
  fieldTerms?: readonly FieldTerm[];
  filter?: FilterNode;
  /** Applied after relevance unless the query is empty (then it is the only order). */
  sort?: SortSpec[];
  limit: number;
  offset: number;
  /** 0 = keyword only … 1 = vector only (spec: semantic_ratio). Default 0. */
  semanticRatio?: number;
  /** Precomputed query embedding; when absent and semanticRatio > 0, the engine embeds `q` with its embedder. */
  vector?: number[];
  /** Restrict matching to these searchable attributes (default: all, in the declared order). */
  attributesToSearchOn?: readonly string[];
  /** Attributes returned in `document` (default: displayed attributes). Never includes full_text. */
  attributesToRetrieve?: readonly string[];
  /** Attributes to return in `formatted` with `<mark>` highlights (default: none). `["*"]` = all displayed. */
  attributesToHighlight?: readonly string[];
  /** Attributes to crop around the best match in `formatted` (default: none). */
  attributesToCrop?: readonly string[];
  /** Crop length in tokens (default 10, Meilisearch default). */
  cropLength?: number;
  /** Default "last" for the keyword path (Meilisearch default). */
  matchingStrategy?: MatchingStrategy;
  /** Facet distribution to compute over the whole matching set (filterable attributes only). */
  facets?: readonly string[];
}

/** Words that must all occur (folded, exact words) in one attribute of a matching document. */
export interface FieldTerm {
  attribute: "court_name" | "judges_flat" | "case_number";
  words: readonly string[];
}

export interface SearchHit {
  document: HitDocument;
  /**
   * Highlighted/cropped copies of the requested attributes (Meilisearch `_formatted`). Text is HTML-escaped
   * (`&`, `<`, `>`, `"` only) and then matches are wrapped in `<mark>`/`</mark>`, so it is safe to render as HTML.
   */
  formatted?: Record<string, string | string[]>;
  /** Relevance in [0,1]; higher is better. Comparable within one response only. */
  score: number;
}

export interface SearchDocumentsResponse {
  hits: SearchHit[];
  /** Estimated number of matching documents, capped at SEARCH_TOTAL_CAP (1000). */
  estimatedTotal: number;
  /** True when the true count exceeds the cap. */
  totalCapped: boolean;
  processingTimeMs: number;
  /** Time spent embedding the query (0 when no embedding was needed or it came from cache). */
  embeddingTimeMs: number;
  /** The effective ratio used (0 when no vector search ran). */
  semanticRatio: number;
  facetDistribution?: Record<string, Record<string, number>>;
  query: string;
  /** What the engine could not honour exactly (a phrase too common to check word positions), in words for users. */
  warnings?: string[];
}

export interface SearchChunksRequest {
  query: string;
  vector?: number[];
  limit: number;
  filter?: FilterNode;
  /** Drop hits below this cosine similarity. */
  minSimilarity?: number;
}

export interface ChunkHit {
  judgmentId: string;
  position: number;
  text: string;
  /** Cosine similarity in [-1,1]. */
  similarity: number;
}

export interface SearchChunksResponse {
  hits: ChunkHit[];
  processingTimeMs: number;
  embeddingTimeMs: number;
}

export interface SimilarRequest {
  id: string;
  limit: number;
  filter?: FilterNode;
  attributesToRetrieve?: readonly string[];
}

export interface SimilarResponse {
  /** The judgment itself is excluded. */
  hits: SearchHit[];
  /** "vector" when the stored embedding was used; "more_like_this" when the engine fell back to keywords. */
  mode: "vector" | "more_like_this";
  processingTimeMs: number;
}

export interface AutocompleteRequest {
  q: string;
  limit: number;
  filter?: FilterNode;
}

/**
 * Spec fixed defaults (Search and documents, autocomplete): search in title, case_number, keywords, legal_topics,
 * court_name, summary; highlight title, summary, case_number, court_name; crop summary to 24 tokens; return id, title,
 * summary, case_number, jurisdiction, court_name, decision_date, case_type, keywords; matching strategy last.
 * Adapters implement autocomplete as a `searchDocuments` with `AUTOCOMPLETE_DEFAULTS` (index-settings.ts) plus
 * topic hits.
 */
export interface AutocompleteResponse {
  hits: SearchHit[];
  estimatedTotal: number;
  processingTimeMs: number;
  /** Topics (legal_topics and keywords values) whose words start with the query, most frequent first. */
  topicHits: TopicHit[];
  query: string;
}

export interface TopicHit {
  topic: string;
  /** Number of judgments carrying it (a stored run's topic: the judgments of its sample it dominates). */
  count: number;
  /** From the topics index (a stored topic run): the topic's id there and its keywords; absent for mined topics. */
  topic_id?: string;
  keywords?: string[];
}

/**
 * One topic of the topics index (spec: Other records, "the topics index in the search engine can be rebuilt from the
 * latest stored run"). `id` is `<run_id>_<topic>` (a valid Meilisearch document id), stable for the run.
 */
export interface TopicIndexEntry {
  id: string;
  run_id: string;
  /** The topic's id within its run (0 = largest). */
  topic: number;
  label: string;
  keywords: { term: string; weight: number }[];
  size: number;
  coherence: number;
  trend: "emerging" | "stable" | "declining";
  slope: number;
  weights_by_period: { period: string; weight: number }[];
}

/** The whole topics index: the run it was built from and its topics (largest first). */
export interface TopicsIndex {
  run_id: string;
  /** ISO time the run was stored. */
  computed_at: string;
  topic_count: number;
  /** Judgments the run modelled (its sample). */
  document_count: number;
  topics: TopicIndexEntry[];
}

/**
 * The topics index port: replaced whole from the latest stored run (null empties it), read whole (it holds at most
 * 30 topics). Autocomplete's topic hits come from it once it holds a run.
 */
export interface TopicsPort {
  replace(index: TopicsIndex | null): Promise<void>;
  read(): Promise<TopicsIndex | null>;
}

export interface SuggestRequest {
  q: string;
  limit: number;
}

/** A phrase mined from the corpus at sync time (1-4 word n-grams weighted by frequency). */
export interface Suggestion {
  text: string;
  /** Frequency-derived weight; higher is better. */
  score: number;
  /** "topic" = a legal_topics/keywords value; "phrase" = an n-gram of titles/summaries. */
  kind: "phrase" | "topic";
  /** Number of judgments the phrase or topic occurs in. */
  count?: number;
}

export interface SuggestResponse {
  suggestions: Suggestion[];
  processingTimeMs: number;
}

export interface FacetsRequest {
  /** Filterable attributes to count. */
  facets: readonly string[];
  q?: string;
  filter?: FilterNode;
  /** Top N values per facet (spec draft: 20). */
  maxValuesPerFacet?: number;
  /** Optional typed narrowing: keep only values containing this (case-insensitive) per facet. */
  facetQuery?: string;
}

export interface FacetsResponse {
  facetDistribution: Record<string, Record<string, number>>;
  /** Number of matching documents (uncapped when the engine knows it, else capped). */
  total: number;
  processingTimeMs: number;
}

export interface SyncCounts {
  documents: number;
  chunks: number;
  deleted: number;
}

export interface FullSyncOptions {
  /** Called after each batch with cumulative counts. */
  onProgress?: (counts: SyncCounts) => void;
  /** How many documents the build expects (the embedded engine reserves its vector memory once). */
  expectedDocuments?: number;
}

/**
 * A full rebuild: documents go into a fresh index that replaces the live one only on `commit` (Meilisearch: index
 * swap). Until then searches keep answering from the old index. `abort` discards the fresh index.
 */
export interface FullSyncSession {
  add(batch: IndexBatch): Promise<void>;
  /** Phrases mined over the whole corpus (suggest.ts) are stored with the swap. */
  commit(extra: { suggestions: Suggestion[] }): Promise<SyncCounts>;
  abort(): Promise<void>;
}

export interface SyncPort {
  beginFull(options?: FullSyncOptions): Promise<FullSyncSession>;
  /** Insert or replace documents (and all their chunks) by id. */
  upsert(batch: IndexBatch): Promise<SyncCounts>;
  /** Remove documents and their chunks; unknown ids are ignored. */
  delete(ids: string[]): Promise<SyncCounts>;
  /**
   * The `updated_at` the index holds for each of `ids` it holds (the incremental sync's late-commit check). A writer
   * answers without loading the index for queries.
   */
  indexedVersions(ids: readonly string[]): Promise<Map<string, unknown>>;
}

export interface EmbedderInfo {
  id: string;
  /** Human label, e.g. "lexical (no model configured)". */
  label: string;
  dimensions: number;
  /** Whether the engine has an embedder registered (Meilisearch: read back from settings). */
  registered: boolean;
}

export interface EngineHealth {
  engine: "lancedb" | "meilisearch";
  status: "ok" | "degraded" | "down";
  documents: number;
  chunks: number;
  embedder: EmbedderInfo;
  /** Free-text detail when not ok; never contains secrets. */
  message?: string;
  /** False when the index was built with another document layout (INDEX_LAYOUT: fields added since); absent = current. */
  layoutCurrent?: boolean;
}

export interface SearchEngine {
  readonly name: "lancedb" | "meilisearch";
  searchDocuments(req: SearchDocumentsRequest): Promise<SearchDocumentsResponse>;
  searchChunks(req: SearchChunksRequest): Promise<SearchChunksResponse>;
  /** Throws `DocumentNotFoundError` when the id is not in the index. */
  similar(req: SimilarRequest): Promise<SimilarResponse>;
  autocomplete(req: AutocompleteRequest): Promise<AutocompleteResponse>;
  suggest(req: SuggestRequest): Promise<SuggestResponse>;
  facets(req: FacetsRequest): Promise<FacetsResponse>;
  /** Documents by id in the order asked, missing ids skipped (displayed attributes only). */
  getDocuments(ids: readonly string[], attributesToRetrieve?: readonly string[]): Promise<HitDocument[]>;
  readonly sync: SyncPort;
  /** The topics index: rebuilt from the latest stored topic run. */
  readonly topics: TopicsPort;
  /** The settings in force, read back from the engine (what `index-settings.ts` declared). */
  settings(): Promise<import("./index-settings").IndexSettings>;
  health(): Promise<EngineHealth>;
  /**
   * When the live index cannot be opened (files corrupted by a crash), set it aside so a full sync can rebuild it
   * from Postgres: what was wrong and where the files went, or null when the index opens (nothing done). Only an
   * engine with local files can do this (LanceDB); a Meilisearch outage is not a corrupt index.
   */
  recoverUnreadable?(): Promise<{ reason: string; movedTo: string } | null>;
  /** Release files/connections. */
  close(): Promise<void>;
}

/**
 * Text embedder (ARCHITECTURE: embeddings). Implementations: `lib/search/embedders/local-hash.ts` (default, lexical,
 * 384 dims) and `lib/search/embedders/ai-sdk.ts` (any OpenAI-compatible model via the `ai` SDK).
 * Vectors are L2-normalised so cosine similarity = dot product.
 */
export interface Embedder {
  readonly id: string;
  /** Shown in the UI and health: "lexical (no model configured)" for local-hash. */
  readonly label: string;
  readonly kind: "lexical" | "model";
  readonly dimensions: number;
  embedDocuments(texts: string[]): Promise<number[][]>;
  /** Query embeddings are cached (LRU) by the implementation. */
  embedQuery(text: string): Promise<number[]>;
}
