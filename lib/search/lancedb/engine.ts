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
import { watch, type FSWatcher } from "node:fs";
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
import { appendDelta, deltaSize, readDeltaFrom, type DeltaEntry } from "./delta-log";
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
import { countDocuments, deleteRows, indexedVersions, upsertRows } from "./table-writes";
import { TopicsFileStore } from "./topics-store";
import { similarRows } from "./vector-search";
import { WriteLock } from "./write-lock";

export interface LanceDbEngineOptions {
  dir: string;
  embedder: Embedder;
}

export class LanceDbEngine implements SearchEngine {
  readonly name = "lancedb" as const;
  private store: SearchStore | null = null;
  /** The state `tables` belong to (and `live`, when loaded). */
  private state: StoreState | null = null;
  private tables: GenerationTables | null = null;
  /** The live generation in memory (empty until the index is opened). */
  private live: LiveIndex;
  /**
   * Whether `live` holds `state`'s generation: opened to answer queries, or handed over by a full build. A process
   * that only writes (the import CLI's closing sync, the sync CLI) never loads it: an incremental write needs the
   * tables, the delta log and state.json, not the whole corpus in memory (seconds of CPU on the demo corpus).
   */
  private loaded = false;
  /** Bytes of state.gen's delta log replayed into `live`: a catch-up reads only what follows. */
  private deltaEnd = 0;
  /** The log's size when it was last read (a torn last line is not read again every second). */
  private deltaSeen = 0;
  private chunkCount = 0;
  private readonly predicates = new PredicateCache();
  private opening: Promise<void> | null = null;
  private checkedAt = 0;
  /** The state check (and catch-up or reload) in flight (checkForNewerState), awaited by close(). */
  private checking: Promise<void> | null = null;
  /** A change announced while a check was in flight: check again when it ends. */
  private recheck = false;
  /** Tells a serving process that state.json was replaced, so it catches up without waiting for a query. */
  private watcher: FSWatcher | null = null;
  private readonly mutex = new Mutex();
  /**
   * One writer at a time on the folder, across processes (write-lock.ts): taken before the mutex by every write (the
   * lock order; a full build holds it from begin to commit or abort). Queries, loads and catch-ups never take it.
   */
  private readonly writeLock: WriteLock;

  readonly topics: TopicsPort;

  constructor(private readonly options: LanceDbEngineOptions) {
    this.live = new LiveIndex(options.embedder.dimensions);
    this.topics = new TopicsFileStore(options.dir);
    this.writeLock = WriteLock.for(options.dir);
  }

  get embedder(): Embedder {
    return this.options.embedder;
  }

  // ---------------------------------------------------------------- lifecycle

  private async ready(): Promise<void> {
    if (this.opening) {
      await this.opening;
      // Not awaited: the query is answered from the generation it has while state.json is read (once a second), so
      // no query waits for that file read (it showed in the 10x tails); a newer state is adopted in the background.
      this.scheduleCheck(false);
      return;
    }
    this.opening = this.load()
      .then(() => this.watchState())
      .catch((e: unknown) => {
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
      this.loaded = true;
      return;
    }
    // Build the new generation aside, then swap it in in one synchronous step so queries never see half an index.
    const { live, tables, chunkCount, deltaEnd } = await openGeneration(this.store, state, this.embedder.dimensions);
    this.adopt(live, tables, state, chunkCount, deltaEnd);
  }

  /** Swap a generation in, in one synchronous step (queries never see half an index). */
  private adopt(live: LiveIndex, tables: GenerationTables, state: StoreState, chunkCount: number, deltaEnd: number): void {
    this.live = live;
    this.chunkCount = chunkCount;
    this.tables = tables;
    this.state = state;
    this.loaded = true;
    this.deltaEnd = deltaEnd;
    this.deltaSeen = deltaEnd;
  }

  private resetMemory(): void {
    this.live = new LiveIndex(this.embedder.dimensions);
    this.chunkCount = 0;
    this.deltaEnd = 0;
    this.deltaSeen = 0;
  }

  /**
   * A serving process hears of a new state.json (atomic rename by a writer in another process) at once, instead of
   * on its next query: that query would otherwise be answered from the state before the write. Best effort: where
   * the file system sends no events, the check once a second on queries remains.
   */
  private watchState(): void {
    if (this.watcher || !this.store) return;
    try {
      this.watcher = watch(this.options.dir, { persistent: false }, (_event, name) => {
        if (name === "state.json") this.scheduleCheck(true);
      });
      this.watcher.on("error", () => {
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      this.watcher = null;
    }
  }

  /** Start a state check unless one is running (`force`: a change was announced, so check even within the second). */
  private scheduleCheck(force: boolean): void {
    if (this.checking) {
      if (force) this.recheck = true;
      return;
    }
    this.checking = this.checkForNewerState(force).finally(() => {
      this.checking = null;
      if (this.recheck && this.store) {
        this.recheck = false;
        this.scheduleCheck(true);
      }
    });
  }

  /**
   * Another process (the sync CLI, the worker's scheduled sync) may have rebuilt or updated the index: compare
   * state.json and the delta log with what is loaded (at most once a second, or when the watcher announces a new
   * state.json) and move on in the background: a new generation is loaded whole, incremental writes to the loaded one
   * are read from the delta log's tail (catchUp).
   */
  private async checkForNewerState(force: boolean): Promise<void> {
    const now = Date.now();
    if ((!force && now - this.checkedAt < 1000) || !this.store || !this.loaded) return;
    this.checkedAt = now;
    const disk = await this.store.readState().catch(() => null);
    if (!disk || !(await this.moved(disk))) return;
    await this.mutex
      .run(async () => {
        // Read again inside the lock: a write of this process may have caught up meanwhile.
        const latest = await this.store?.readState();
        if (!latest || !(await this.moved(latest))) return;
        if (this.state && this.tables && latest.gen === this.state.gen) await this.catchUp(latest, this.tables);
        else await this.load();
      })
      .catch(() => undefined);
  }

  /** Whether the index on disk differs from what `live` holds (another generation, revision, or more log). */
  private async moved(disk: StoreState): Promise<boolean> {
    if (!this.state || !this.store) return true;
    if (disk.gen !== this.state.gen || (disk.rev ?? 0) !== (this.state.rev ?? 0)) return true;
    return (await deltaSize(this.store.deltaLogPath(disk.gen))) !== this.deltaSeen;
  }

  /**
   * Apply the incremental writes logged since `live` was last brought up to date (same generation): read the log's
   * tail from `deltaEnd`, point the table handles at the tables' latest version (LanceDB's default consistency: a
   * handle does not follow other processes' writes by itself), then apply the entries in one synchronous step, so a
   * query sees the index before or after them, never between. Costs the new entries, not the corpus.
   */
  private async catchUp(state: StoreState, tables: GenerationTables): Promise<void> {
    const store = this.store as SearchStore;
    const file = store.deltaLogPath(state.gen);
    const seen = await deltaSize(file);
    const { entries, end } = await readDeltaFrom(file, this.deltaEnd);
    await Promise.all([tables.docs.checkoutLatest(), tables.chunks.checkoutLatest()]);
    const chunkCount = await tables.chunks.countRows();
    for (const entry of entries) this.live.applyDelta(entry);
    if (entries.length > 0) this.live.rebuildDelta();
    this.deltaEnd = end;
    this.deltaSeen = Math.max(seen, end);
    this.chunkCount = chunkCount;
    this.state = state;
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
    upsert: (batch: IndexBatch) => this.writeLock.run(() => this.mutex.run(() => this.upsert(batch))),
    delete: (ids: string[]) => this.writeLock.run(() => this.mutex.run(() => this.deleteIds(ids))),
    indexedVersions: (ids: readonly string[]) => this.mutex.run(() => this.indexedVersions(ids)),
  };

  /**
   * A full build holds the folder's write lock from here to its commit or abort, so a second build (another process's
   * full sync) waits and then builds on top, and no other writer's cleanup drops this build's tables or names another
   * generation meanwhile. `locked`: the caller holds both locks already (the first write into an empty store), so
   * neither is taken again (neither is reentrant: waiting for them here never ended).
   */
  private async beginFull(options: FullSyncOptions = {}, locked = false): Promise<FullSyncSession> {
    const release = locked ? async () => undefined : await this.writeLock.acquire();
    try {
      await this.ready();
      const store = this.store as SearchStore;
      const host = {
        store,
        embedder: this.embedder,
        exclusive: <T>(fn: () => Promise<T>) => (locked ? fn() : this.mutex.run(fn)),
        // A fresh generation has no delta log yet.
        adopt: (live: LiveIndex, tables: GenerationTables, state: StoreState, chunkCount: number) => this.adopt(live, tables, state, chunkCount, 0),
        release,
      };
      // Newer than whatever is on disk now (the generation another process committed while this one waited).
      const disk = await store.readState().catch(() => null);
      return await beginFullBuild(host, Math.max((disk?.gen ?? 0) + 1, (this.state?.gen ?? 0) + 1, Date.now()), options);
    } catch (e) {
      await release();
      throw e;
    }
  }

  /**
   * The tables of the generation state.json names, before an incremental write (inside the mutex). If another
   * process moved the index on (a full build by the sync CLI or the journeys' corpus, another writer's incremental
   * write), follow it first: writing from an older state would add the rows to a replaced generation and write its id
   * back to state.json, so every reader would go back to the old generation or never see the write. A process that
   * serves queries brings its memory up to date too (catchUp, or a whole load for another generation); one that only
   * writes opens the tables and nothing else. Null when there is no index and `create` is false.
   */
  private async writable(create: boolean): Promise<GenerationTables | null> {
    // A process opening the index for queries finishes that first, so its memory and the log stay in step.
    if (this.opening) await this.opening.catch(() => undefined);
    this.store ??= await SearchStore.open(this.options.dir);
    const disk = await this.store.readState().catch(() => null);
    if (!disk) {
      if (this.tables) return this.tables;
      if (!create) return null;
      // First write without a full sync: start an empty generation (inside the lock this write holds: the lock is not
      // reentrant, and waiting for it here never ended).
      const session = await this.beginFull({}, true);
      await session.commit({ suggestions: [] });
      return this.tables;
    }
    if (this.loaded && this.state && this.tables && disk.gen === this.state.gen) await this.catchUp(disk, this.tables);
    else if (this.loaded) await this.load();
    else if (this.state && this.tables && disk.gen === this.state.gen) {
      await Promise.all([this.tables.docs.checkoutLatest(), this.tables.chunks.checkoutLatest()]);
      this.state = disk;
    } else {
      this.tables = await this.store.openTables(disk.gen);
      this.state = disk;
    }
    return this.tables;
  }

  /**
   * Write to the live generation's tables, then log it and announce it (commitWrite). A full build that replaced the
   * generation meanwhile wins: the write is made again into the new one (its own rows may predate the write).
   */
  private async write(entry: DeltaEntry, create: boolean, tablesWrite: (tables: GenerationTables) => Promise<void>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const tables = await this.writable(create);
      if (!tables) return false;
      await tablesWrite(tables);
      if (await this.commitWrite(entry, tables)) return true;
      if (attempt >= 3) throw new SearchEngineError("The search index was rebuilt during every attempt to write to it");
    }
  }

  private async upsert(batch: IndexBatch): Promise<SyncCounts> {
    const ids = batch.documents.map((d) => d.document.id);
    if (ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    await this.write({ op: "upsert", documents: batch.documents }, true, (tables) => upsertRows(tables, batch, this.embedder.dimensions));
    return { documents: ids.length, chunks: batch.chunks.length, deleted: 0 };
  }

  private async deleteIds(ids: string[]): Promise<SyncCounts> {
    if (ids.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    let deleted = 0;
    await this.write({ op: "delete", ids }, false, async (tables) => {
      deleted = await countDocuments(tables, ids);
      await deleteRows(tables, ids);
    });
    return { documents: 0, chunks: 0, deleted };
  }

  /** The updated_at the index holds per id (the sync's late-commit check): from memory when loaded, else the table. */
  private async indexedVersions(ids: readonly string[]): Promise<Map<string, unknown>> {
    const tables = await this.writable(false);
    if (this.loaded) {
      const out = new Map<string, unknown>();
      for (const id of ids) {
        const doc = this.live.docs.get(id);
        if (doc) out.set(id, doc.updated_at);
      }
      return out;
    }
    return tables ? indexedVersions(tables, ids) : new Map();
  }

  /**
   * After an incremental write to the tables: unless a full build replaced the generation meanwhile (false: write
   * again), log it for processes opening or serving this generation, bring this process's memory up to date when it
   * serves, and bump state.json's revision so other processes catch up (checkForNewerState). The entry is in the log
   * before the revision names it.
   */
  private async commitWrite(entry: DeltaEntry, tables: GenerationTables): Promise<boolean> {
    const store = this.store as SearchStore;
    const state = this.state as StoreState;
    const disk = await store.readState().catch(() => null);
    if (disk && disk.gen !== state.gen) return false;
    await appendDelta(store.deltaLogPath(state.gen), entry);
    const next: StoreState = { ...(disk ?? state), rev: Math.max(disk?.rev ?? 0, state.rev ?? 0) + 1 };
    if (this.loaded) await this.catchUp(next, tables);
    else this.state = next;
    await store.writeState(next);
    return true;
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
    return this.writeLock.run(() => this.mutex.run(async () => {
      this.store ??= await SearchStore.open(this.options.dir);
      const state = await this.store.readState();
      if (!state) return null;
      const movedTo = await this.store.setAside(state.gen);
      // ready() failed, so nothing is being opened: the next ready() loads the now empty store.
      this.opening = null;
      this.resetMemory();
      this.state = null;
      this.tables = null;
      this.loaded = false;
      return { reason: reason.slice(0, 500), movedTo };
    }));
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
    this.watcher?.close();
    this.watcher = null;
    this.recheck = false;
    await this.checking;
    this.store?.close();
    this.store = null;
    this.opening = null;
    this.tables = null;
    this.state = null;
    this.loaded = false;
    this.resetMemory();
  }
}
