/**
 * The Meilisearch adapter of the `SearchEngine` port (ARCHITECTURE: production search engine), as a
 * facade over search.ts (queries) and lifecycle.ts (index settings and writes), with status.ts (settings read back,
 * indexing state, health) and connection.ts (client, task API).
 *
 * Three indexes per configured name N (MEILI_INDEX, default `judgments`):
 * - `N`              one document per judgment, settings from `../index-settings.ts`, vectors under `_vectors.<embedder>`;
 * - `N_chunks`       passages of the full text with vectors, for semantic chunk search;
 * - `N_suggestions`  typeahead phrases and topics mined at full sync.
 *
 * Settings go on in two phases (everything, then the `userProvided` embedder), each waited for through the task API
 * and verified by reading the settings back. A full rebuild fills `N_tmp_<ts>` (and its chunk/suggestion twins),
 * swaps them in atomically with `POST /swap-indexes`, then deletes the old generation; searches keep answering from
 * the old index until the swap. Incremental sync upserts and deletes in place.
 *
 * Requires Meilisearch ≥ 1.18 (`rename` in swap-indexes, `ids` on the documents route); see docs/meilisearch.md.
 */
import type { SearchParams } from "meilisearch";
import type { IndexSettings } from "../index-settings";
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  Embedder,
  EngineHealth,
  FacetsRequest,
  FacetsResponse,
  HitDocument,
  SearchChunksRequest,
  SearchChunksResponse,
  SearchDocumentsRequest,
  SearchDocumentsResponse,
  SearchEngine,
  SimilarRequest,
  SimilarResponse,
  SuggestRequest,
  SuggestResponse,
  SyncPort,
} from "../types";
import { MeiliTopics } from "./topics";
import { matchTopics } from "../topics-index";
import type { MeiliConfig } from "./config";
import { MeiliConnection, type IndexUids } from "./connection";
import { MeiliIndexLifecycle } from "./lifecycle";
import { MeiliSearcher, TOPIC_HITS_LIMIT } from "./search";
import { engineHealth, readIndexSettings, readSyncState, type MeiliSyncState } from "./status";

export { indexUids, type IndexUids } from "./connection";
export { escapeMarked, toHitDocument } from "./hits";
export { chunkDocumentId } from "./lifecycle";
export { TOPIC_HITS_LIMIT } from "./search";
export type { MeiliSyncState } from "./status";

export interface MeilisearchEngineOptions {
  config: MeiliConfig;
  /** Embeds queries (hybrid, chunk search); its dimensions size the `userProvided` embedder. */
  embedder: Embedder;
  /** Clock for the `<name>_tmp_<ts>` suffix (tests pin it). */
  now?: () => number;
}

export class MeilisearchEngine implements SearchEngine {
  readonly name = "meilisearch" as const;
  readonly sync: SyncPort;
  readonly uids: IndexUids;
  /** The topics index (`<index>_topics`, ./topics.ts). */
  readonly topics: MeiliTopics;
  private readonly conn: MeiliConnection;
  private readonly embedder: Embedder;
  private readonly searcher: MeiliSearcher;
  private readonly lifecycle: MeiliIndexLifecycle;

  constructor(options: MeilisearchEngineOptions) {
    this.embedder = options.embedder;
    this.conn = new MeiliConnection(options.config);
    this.uids = this.conn.uids;
    this.searcher = new MeiliSearcher(this.conn, this.embedder);
    this.topics = new MeiliTopics(this.conn);
    this.lifecycle = new MeiliIndexLifecycle(this.conn, this.embedder, options.now ?? Date.now);
    this.sync = {
      beginFull: (o) => this.lifecycle.beginFull(o),
      upsert: (b) => this.lifecycle.upsert(b),
      delete: (ids) => this.lifecycle.deleteDocuments(ids),
      indexedVersions: async (ids) =>
        new Map((await this.searcher.getDocuments([...ids], ["id", "updated_at"])).map((d) => [String(d.id), d.updated_at])),
    };
  }

  /**
   * Make sure the live indexes exist with the declared settings (both phases), applying only what differs. Runs
   * once per process before the first write; `npm run search:sync` calls it explicitly.
   */
  applyIndexSettings(): Promise<void> {
    return this.lifecycle.applyIndexSettings();
  }

  // ---- search (search.ts) -------------------------------------------------------------------------------------------

  /** The request body of a document search (exported shape is asserted by the adapter tests). */
  documentSearchBody(req: SearchDocumentsRequest, vector?: number[], ratio = 0): SearchParams {
    return this.searcher.documentSearchBody(req, vector, ratio);
  }

  /** Autocomplete with the spec's fixed defaults (../index-settings.ts AUTOCOMPLETE_DEFAULTS). */
  autocompleteBody(req: AutocompleteRequest): SearchParams {
    return this.searcher.autocompleteBody(req);
  }

  searchDocuments(req: SearchDocumentsRequest): Promise<SearchDocumentsResponse> {
    return this.searcher.searchDocuments(req);
  }

  searchChunks(req: SearchChunksRequest): Promise<SearchChunksResponse> {
    return this.searcher.searchChunks(req);
  }

  similar(req: SimilarRequest): Promise<SimilarResponse> {
    return this.searcher.similar(req);
  }

  /**
   * Topic hits come from the topics index once it holds a run, matched as the embedded engine matches
   * them (../topics-index.ts; the index holds at most 30 topics, read whole); before the first run, from the
   * suggestions index's mined topics.
   */
  async autocomplete(req: AutocompleteRequest): Promise<AutocompleteResponse> {
    const [res, stored] = await Promise.all([this.searcher.autocomplete(req), this.topics.read()]);
    return stored ? { ...res, topicHits: matchTopics(stored, req.q, TOPIC_HITS_LIMIT) } : res;
  }

  suggest(req: SuggestRequest): Promise<SuggestResponse> {
    return this.searcher.suggest(req);
  }

  facets(req: FacetsRequest): Promise<FacetsResponse> {
    return this.searcher.facets(req);
  }

  getDocuments(ids: string[], attributesToRetrieve?: string[]): Promise<HitDocument[]> {
    return this.searcher.getDocuments(ids, attributesToRetrieve);
  }

  // ---- settings, health (status.ts) ---------------------------------------------------------------------------------

  settings(): Promise<IndexSettings> {
    return readIndexSettings(this.conn);
  }

  /** Indexing state for the health page (D-20 sync state): running tasks, last update, document counts. */
  syncState(): Promise<MeiliSyncState> {
    return readSyncState(this.conn);
  }

  health(): Promise<EngineHealth> {
    return engineHealth(this.conn, this.embedder);
  }

  async close(): Promise<void> {
    // The client is stateless (fetch); nothing to release.
  }
}
