/**
 * The embedded `SearchEngine` (ARCHITECTURE: "lancedb … the embedded default"), as a facade over the modules of this
 * folder (lib/search/DESIGN.md has the map). LanceDB holds the durable data (documents with their vectors, chunks
 * with theirs) and answers chunk search (chunk-search.ts); the keyword path is an in-process inverted index
 * (keyword-segment.ts, built by segment-builder.ts) built with each generation and persisted next to it (snapshot.ts, loaded on open by
 * generation.ts; rebuilt from the documents table when missing), and document vectors are scanned in memory
 * (vector-scan.ts, vector-search.ts; filters apply with exactly the same semantics as the keyword path). A
 * generation's serving state is one LiveIndex (live-index.ts), swapped in whole. This file keeps the lifecycle
 * (open, reload when another process moved the index on, recover, close) and the write path (full-build.ts for full
 * syncs; upserts and deletes here). docs/search.md says why the keyword path is not LanceDB FTS.
 */
import { performance } from "node:perf_hooks";
import { DocumentNotFoundError, SearchEngineError } from "../errors";
import { AUTOCOMPLETE_DEFAULTS, MAX_TOTAL_HITS, embedderSettings, indexSettings, type IndexSettings } from "../index-settings";
import { words } from "../text/tokenize";
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  Embedder,
  EngineHealth,
  FacetsRequest,
  FacetsResponse,
  FullSyncOptions,
  FullSyncSession,
  HitDocument,
  IndexBatch,
  SearchChunksRequest,
  SearchChunksResponse,
  SearchDocumentsRequest,
  SearchDocumentsResponse,
  SearchEngine,
  SimilarRequest,
  SimilarResponse,
  SuggestRequest,
  SuggestResponse,
  SyncCounts,
  SyncPort,
  TopicsPort,
} from "../types";
import { matchTopics } from "../topics-index";
import { searchChunkTable } from "./chunk-search";
import { appendDelta, type DeltaEntry } from "./delta-log";
import { facetDistribution } from "./facets";
import { formatHit, formatPlan, project, projection } from "./format";
import { beginFullBuild } from "./full-build";
import { openGeneration, type GenerationTables } from "./generation";
import { downHealth, openHealth } from "./health";
import { LiveIndex, type StoredDoc } from "./live-index";
import { Mutex } from "./mutex";
import { PredicateCache } from "./predicates";
import { parseQuery } from "./query";
import { queryConstraints } from "./query-constraints";
import { queryVector, type QueryVector } from "./query-vector";
import { needsQueryVector, rank, type Ranking } from "./ranking";
import { SearchStore, type StoreState } from "./store";
import { suggestionsStartingWith, topicHits } from "./suggestions";
import { deleteRows, upsertRows } from "./table-writes";
import { TopicsFileStore } from "./topics-store";
import { similarRows } from "./vector-search";

export interface LanceDbEngineOptions {
  dir: string;
  embedder: Embedder;
}

export class LanceDbEngine implements SearchEngine {
  readonly name = "lancedb" as const;
  private store: SearchStore | null = null;
  private state: StoreState | null = null;
  private tables: GenerationTables | null = null;
  /** The live generation in memory (empty until the index is opened). */
  private live: LiveIndex;
  private chunkCount = 0;
  private readonly predicates = new PredicateCache();
  private opening: Promise<void> | null = null;
  private reloading: Promise<void> | null = null;
  private checkedAt = 0;
  /** The state.json check in flight (checkForNewerState), awaited by close(). */
  private checking: Promise<void> | null = null;
  private readonly mutex = new Mutex();

  readonly topics: TopicsPort;

  constructor(private readonly options: LanceDbEngineOptions) {
    this.live = new LiveIndex(options.embedder.dimensions);
    this.topics = new TopicsFileStore(options.dir);
  }

  get embedder(): Embedder {
    return this.options.embedder;
  }

  // ---------------------------------------------------------------- lifecycle

  private async ready(): Promise<void> {
    if (this.opening) {
      await this.opening;
      // Not awaited: the query is answered from the generation it has while state.json is read (once a second), so
      // no query waits for that file read (it showed in the 10x tails); a newer state is loaded in the background.
      this.checking ??= this.checkForNewerState().finally(() => {
        this.checking = null;
      });
      return;
    }
    this.opening = this.load().catch((e: unknown) => {
      this.opening = null;
      throw new SearchEngineError("The search index could not be opened", { cause: e });
    });
    return this.opening;
  }

  private async load(): Promise<void> {
    this.store ??= await SearchStore.open(this.options.dir);
    const state = await this.store.readState();
    if (!state) {
      this.resetMemory();
      this.state = null;
      this.tables = null;
      return;
    }
    // Build the new generation aside, then swap it in in one synchronous step so queries never see half an index.
    const { live, tables, chunkCount } = await openGeneration(this.store, state, this.embedder.dimensions);
    this.adopt(live, tables, state, chunkCount);
  }

  /** Swap a generation in, in one synchronous step (queries never see half an index). */
  private adopt(live: LiveIndex, tables: GenerationTables, state: StoreState, chunkCount: number): void {
    this.live = live;
    this.chunkCount = chunkCount;
    this.tables = tables;
    this.state = state;
  }

  private resetMemory(): void {
    this.live = new LiveIndex(this.embedder.dimensions);
    this.chunkCount = 0;
  }

  /**
   * Another process (the sync CLI, the worker's scheduled sync) may have rebuilt or updated the index: at most
   * once a second, compare state.json with what is loaded and reload in the background when it moved on.
   */
  private async checkForNewerState(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < 1000 || this.reloading || !this.store) return;
    this.checkedAt = now;
    const disk = await this.store.readState().catch(() => null);
    if (!disk || (this.state && disk.gen === this.state.gen && (disk.rev ?? 0) === (this.state.rev ?? 0))) return;
    this.reloading = this.mutex
      .run(() => this.load())
      .catch(() => undefined)
      .finally(() => {
        this.reloading = null;
      });
  }

  // ---------------------------------------------------------------- query helpers

  private queryVector(req: { q: string; vector?: number[] }): Promise<QueryVector> {
    return queryVector(this.embedder, this.state ? this.state.embedder.dimensions : null, req);
  }

  /** Rank a request (ranking.ts) on the live generation, returned with it so hits are read from the same one. */
  private async rank(req: SearchDocumentsRequest, wantIds: boolean): Promise<{ live: LiveIndex; ranking: Ranking; warnings: string[] }> {
    let pred = this.predicates.get(req.filter);
    // Embed first: everything after this await then runs in one synchronous step on one index state (the keyword
    // matches are the segments' scratch, the similarities the generation's).
    const embedded = needsQueryVector(req) ? await this.queryVector(req) : null;
    // Exclusions, phrases' word positions, OR groups with a phrase and field terms narrow the matches like a filter (query-constraints.ts);
    // checking a phrase may read documents, so it runs before the synchronous ranking.
    let warnings: string[] = [];
    const parsed = parseQuery(req.q);
    if (parsed.excluded.length > 0 || parsed.phrases.length > 0 || parsed.orGroups.length > 0 || (req.fieldTerms?.length ?? 0) > 0) {
      // Answers are by id, so an index change while documents were read only risks missing a document written in
      // between, for this one query.
      const c = await queryConstraints(this.live, this.live.documentsVersion, this.tables?.docs ?? null, parsed, req.fieldTerms);
      warnings = c.warnings;
      const accept = c.accept;
      if (accept) {
        const base = pred;
        pred = base ? (doc) => base(doc) && accept(doc) : accept;
      }
    }
    const live = this.live;
    return { live, ranking: rank(live, req, pred, embedded, wantIds, parsed), warnings };
  }

  // ---------------------------------------------------------------- SearchEngine

  async searchDocuments(req: SearchDocumentsRequest): Promise<SearchDocumentsResponse> {
    await this.ready();
    const t0 = performance.now();
    const wantFacets = !!req.facets && req.facets.length > 0;
    const { live, ranking, warnings } = await this.rank(req, wantFacets);
    const { marks, embeddingTimeMs, ratio } = ranking;
    const plan = formatPlan(req);
    const proj = projection(req.attributesToRetrieve);
    const page = ranking.page.map((c) => formatHit(live.docs.get(c.id) as StoredDoc, c.score, proj, plan, marks));
    const res: SearchDocumentsResponse = {
      hits: page,
      estimatedTotal: Math.min(ranking.total, MAX_TOTAL_HITS),
      totalCapped: ranking.total > MAX_TOTAL_HITS,
      processingTimeMs: 0,
      embeddingTimeMs: Math.round(embeddingTimeMs),
      semanticRatio: ratio,
      query: req.q,
    };
    if (warnings.length > 0) res.warnings = warnings;
    if (req.facets && req.facets.length > 0) {
      res.facetDistribution = facetDistribution(live.docs, ranking.ids ?? [], req.facets, 100);
    }
    res.processingTimeMs = Math.round(performance.now() - t0);
    return res;
  }

  async facets(req: FacetsRequest): Promise<FacetsResponse> {
    await this.ready();
    const t0 = performance.now();
    const { live, ranking } = await this.rank({ q: req.q ?? "", filter: req.filter, limit: 0, offset: 0 }, true);
    return {
      facetDistribution: facetDistribution(live.docs, ranking.ids ?? [], req.facets, req.maxValuesPerFacet ?? 100, req.facetQuery),
      total: ranking.total,
      processingTimeMs: Math.round(performance.now() - t0),
    };
  }

  async searchChunks(req: SearchChunksRequest): Promise<SearchChunksResponse> {
    await this.ready();
    const t0 = performance.now();
    if (!this.tables || this.chunkCount === 0) return { hits: [], processingTimeMs: 0, embeddingTimeMs: 0 };
    const { vec, ms } = await this.queryVector({ q: req.query, vector: req.vector });
    const hits = await searchChunkTable(this.tables.chunks, vec, req, (id) => this.live.docs.get(id));
    return { hits, processingTimeMs: Math.round(performance.now() - t0), embeddingTimeMs: Math.round(ms) };
  }

  async similar(req: SimilarRequest): Promise<SimilarResponse> {
    await this.ready();
    const t0 = performance.now();
    const live = this.live;
    const row = live.vecRow.get(req.id);
    if (!live.docs.has(req.id) || row === undefined) throw new DocumentNotFoundError(req.id);
    const { rows, scan } = similarRows(live, row, req.limit, this.predicates.get(req.filter));
    return {
      hits: rows.map((r) => ({
        document: project(scan.docs[r] as StoredDoc, req.attributesToRetrieve),
        score: Math.max(0, Math.min(1, scan.sims[r])),
      })),
      // A lexical embedder makes this a more-like-this over words, not a semantic neighbour search.
      mode: this.embedder.kind === "model" ? "vector" : "more_like_this",
      processingTimeMs: Math.round(performance.now() - t0),
    };
  }

  async autocomplete(req: AutocompleteRequest): Promise<AutocompleteResponse> {
    const d = AUTOCOMPLETE_DEFAULTS;
    const r = await this.searchDocuments({
      q: req.q,
      filter: req.filter,
      limit: req.limit,
      offset: 0,
      attributesToSearchOn: d.attributesToSearchOn,
      attributesToHighlight: d.attributesToHighlight,
      attributesToCrop: d.attributesToCrop,
      cropLength: d.cropLength,
      attributesToRetrieve: d.attributesToRetrieve,
      matchingStrategy: d.matchingStrategy,
    });
    // Topic hits come from the topics index (the latest stored topic run); before the first run there is
    // none, and the legal topics mined at sync answer instead.
    const stored = await this.topics.read();
    return {
      hits: r.hits,
      estimatedTotal: r.estimatedTotal,
      processingTimeMs: r.processingTimeMs,
      topicHits: stored ? matchTopics(stored, req.q, 5) : topicHits(this.live.suggestIndex, req.q, 5),
      query: req.q,
    };
  }

  async suggest(req: SuggestRequest): Promise<SuggestResponse> {
    await this.ready();
    const t0 = performance.now();
    const key = words(req.q).join(" ");
    if (key === "") return { suggestions: [], processingTimeMs: 0 };
    const suggestions = suggestionsStartingWith(this.live.suggestIndex, key, req.limit);
    return { suggestions, processingTimeMs: Math.round(performance.now() - t0) };
  }

  async getDocuments(ids: readonly string[], attributesToRetrieve?: readonly string[]): Promise<HitDocument[]> {
    await this.ready();
    const out: HitDocument[] = [];
    for (const id of ids) {
      const doc = this.live.docs.get(id);
      if (doc) out.push(project(doc, attributesToRetrieve));
    }
    return out;
  }

  // ---------------------------------------------------------------- sync

  readonly sync: SyncPort = {
    beginFull: (options?: FullSyncOptions) => this.beginFull(options),
    upsert: (batch: IndexBatch) => this.mutex.run(() => this.upsert(batch)),
    delete: (ids: string[]) => this.mutex.run(() => this.deleteIds(ids)),
  };

  private async beginFull(options: FullSyncOptions = {}): Promise<FullSyncSession> {
    await this.ready();
    const host = {
      store: this.store as SearchStore,
      embedder: this.embedder,
      exclusive: <T>(fn: () => Promise<T>) => this.mutex.run(fn),
      adopt: (live: LiveIndex, tables: GenerationTables, state: StoreState, chunkCount: number) =>
        this.adopt(live, tables, state, chunkCount),
    };
    return beginFullBuild(host, Math.max(this.state?.gen ?? 0, Date.now()), options);
  }

  private async ensureLive(): Promise<GenerationTables> {
    await this.ready();
    if (this.tables) return this.tables;
    // First write without a full sync: start an empty generation.
    const session = await this.beginFull();
    await session.commit({ suggestions: [] });
    return this.tables as unknown as GenerationTables;
  }

  /**
   * Before an incremental write (inside the mutex): if another process moved the index on (a full build by the sync
   * CLI or the journeys' corpus, another writer's incremental write), load that state first. Writing from the state
   * loaded earlier would add the rows to a replaced generation and write its id back to state.json, so every reader
   * would go back to the old generation or never see the write.
   */
  private async adoptNewerState(): Promise<void> {
    await this.ready();
    if (!this.store) return;
    const disk = await this.store.readState().catch(() => null);
    if (disk && (!this.state || disk.gen !== this.state.gen || (disk.rev ?? 0) !== (this.state.rev ?? 0))) await this.load();
  }

  private async upsert(batch: IndexBatch): Promise<SyncCounts> {
    await this.adoptNewerState();
    const tables = await this.ensureLive();
    const ids = batch.documents.map((d) => d.document.id);
    if (ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    await upsertRows(tables, batch, this.embedder.dimensions);
    await this.logAndApply({ op: "upsert", documents: batch.documents }, tables);
    return { documents: ids.length, chunks: batch.chunks.length, deleted: 0 };
  }

  private async deleteIds(ids: string[]): Promise<SyncCounts> {
    await this.adoptNewerState();
    if (!this.tables || ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    await deleteRows(this.tables, ids);
    let deleted = 0;
    for (const id of ids) if (this.live.docs.has(id)) deleted++;
    await this.logAndApply({ op: "delete", ids }, this.tables);
    return { documents: 0, chunks: 0, deleted };
  }

  /**
   * After an incremental write to the tables: log it for processes opening this generation, apply it in memory,
   * and tell other processes serving this index that it changed (they reload; see checkForNewerState).
   */
  private async logAndApply(entry: DeltaEntry, tables: GenerationTables): Promise<void> {
    if (this.state && this.store) await appendDelta(this.store.deltaLogPath(this.state.gen), entry);
    this.live.applyDelta(entry);
    this.live.rebuildDelta();
    this.chunkCount = await tables.chunks.countRows();
    if (!this.state || !this.store) return;
    this.state = { ...this.state, rev: (this.state.rev ?? 0) + 1 };
    await this.store.writeState(this.state);
  }

  // ---------------------------------------------------------------- settings / health

  async settings(): Promise<IndexSettings> {
    await this.ready();
    const s = indexSettings();
    if (this.state) s.embedders = embedderSettings({ dimensions: this.state.embedder.dimensions });
    return s;
  }

  async health(): Promise<EngineHealth> {
    try {
      await this.ready();
    } catch (e) {
      return downHealth(this.embedder, e);
    }
    return openHealth(this.embedder, this.state, this.live.docs.size, this.chunkCount);
  }

  async recoverUnreadable(): Promise<{ reason: string; movedTo: string } | null> {
    let reason: string;
    try {
      await this.ready();
      return null;
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
      reason = cause instanceof Error ? cause.message : String(cause);
    }
    return this.mutex.run(async () => {
      this.store ??= await SearchStore.open(this.options.dir);
      const state = await this.store.readState();
      if (!state) return null;
      const movedTo = await this.store.setAside(state.gen);
      // ready() failed, so nothing is being opened: the next ready() loads the now empty store.
      this.opening = null;
      this.resetMemory();
      this.state = null;
      this.tables = null;
      return { reason: reason.slice(0, 500), movedTo };
    });
  }

  /** Build time and generation of the live index (for health and the benchmark). */
  async indexState(): Promise<StoreState | null> {
    await this.ready();
    return this.state;
  }

  async close(): Promise<void> {
    try {
      await this.opening;
    } catch {
      // closing an engine that failed to open is fine
    }
    // A state check or reload in flight must not reopen tables on a closed store.
    await this.checking;
    await this.reloading;
    this.store?.close();
    this.store = null;
    this.opening = null;
    this.tables = null;
  }
}
