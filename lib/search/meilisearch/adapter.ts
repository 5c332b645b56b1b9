/**
 * The Meilisearch adapter of the `SearchEngine` port (ARCHITECTURE: production search engine; issue 5 item 4).
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
import {
  Meilisearch,
  type EnqueuedTaskPromise,
  type Index,
  type SearchParams,
  type SearchResponse,
  type SearchSimilarDocumentsParams,
  type Settings,
  type Task,
} from "meilisearch";
import { CITATION_FIELDS, documentCitationKeys, queryCitationKeys } from "../citations";
import { DocumentNotFoundError, FilterAttributeError, SearchEngineError } from "../errors";
import { filterAttributes, type FilterNode } from "../filter/ast";
import { toMeiliFilter } from "../filter/to-meili";
import {
  AUTOCOMPLETE_DEFAULTS,
  CHUNK_FILTERABLE_ATTRIBUTES,
  HIGHLIGHT_POST_TAG,
  HIGHLIGHT_PRE_TAG,
  MAX_TOTAL_HITS,
  SORTABLE_ATTRIBUTES,
  type IndexSettings,
} from "../index-settings";
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  ChunkRecord,
  Embedder,
  EngineHealth,
  FacetsRequest,
  FacetsResponse,
  FullSyncOptions,
  FullSyncSession,
  HitDocument,
  IndexBatch,
  IndexDocument,
  IndexValue,
  SearchChunksRequest,
  SearchChunksResponse,
  SearchDocumentsRequest,
  SearchDocumentsResponse,
  SearchEngine,
  SearchHit,
  SimilarRequest,
  SimilarResponse,
  SuggestRequest,
  SuggestResponse,
  Suggestion,
  SyncCounts,
  SyncPort,
  TopicHit,
} from "../types";
import type { MeiliConfig } from "./config";
import { EMBEDDER_MISSING_CODES, mapMeiliError, meiliErrorCode, taskFailed } from "./errors";
import { CITATION_KEYS_ATTRIBUTE, chunksPhase1, diffSettings, documentsPhase1, embedderPhase, suggestionsPhase1 } from "./settings";

type Raw = Record<string, unknown>;

/** Meilisearch document ids: alphanumerics, `-` and `_` only (documented `invalid_document_id`). */
const DOC_ID = /^[A-Za-z0-9_-]{1,511}$/;

/** Topic hits returned with autocomplete. */
export const TOPIC_HITS_LIMIT = 5;

/** Suggestions written per request during commit. */
const SUGGESTION_BATCH = 10_000;

/** Words of the judgment used as the query of the keyword fallback of `similar` (no embedder registered). */
const MORE_LIKE_THIS_WORDS = 12;

export interface MeilisearchEngineOptions {
  config: MeiliConfig;
  /** Embeds queries (hybrid, chunk search); its dimensions size the `userProvided` embedder. */
  embedder: Embedder;
  /** Clock for the `<name>_tmp_<ts>` suffix (tests pin it). */
  now?: () => number;
}

export interface IndexUids {
  documents: string;
  chunks: string;
  suggestions: string;
}

/** Indexing state for health pages: is a task running, when did the engine last finish one. */
export interface MeiliSyncState {
  isIndexing: boolean;
  lastUpdate: string | null;
  documents: number;
  chunks: number;
  suggestions: number;
}

export function indexUids(name: string): IndexUids {
  return { documents: name, chunks: `${name}_chunks`, suggestions: `${name}_suggestions` };
}

/** Chunk ids are `${judgmentId}:${position}` in the port; `:` is not allowed in a Meilisearch id. */
export function chunkDocumentId(judgmentId: string, position: number): string {
  return `${judgmentId}_${position}`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * HTML-escape a `_formatted` value while keeping the engine's `<mark>` tags (types.ts: formatted strings are
 * escaped). The engine inserts tags into the raw text, so everything between the tags is escaped here.
 */
export function escapeMarked(text: string): string {
  return text
    .split(/(<mark>|<\/mark>)/)
    .map((part) => (part === HIGHLIGHT_PRE_TAG || part === HIGHLIGHT_POST_TAG ? part : part.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c])))
    .join("");
}

function isIndexValue(v: unknown): v is IndexValue {
  return (
    typeof v === "string" ||
    typeof v === "number" ||
    typeof v === "boolean" ||
    (Array.isArray(v) && v.every((x) => typeof x === "string" || (x !== null && typeof x === "object")))
  );
}

/** A raw hit → displayed document: engine fields (`_formatted`, `_rankingScore`, `_vectors`), full_text and
 * null-valued keys removed (spec: null-valued keys are omitted from hits; full_text is never returned). */
export function toHitDocument(raw: Raw): HitDocument {
  const out: HitDocument = { id: String(raw.id) };
  for (const [k, v] of Object.entries(raw)) {
    if (k === "id" || k.startsWith("_") || k === "full_text" || v === null || v === undefined) continue;
    if (isIndexValue(v)) out[k] = v;
  }
  return out;
}

function formattedOf(raw: Raw, attributes: Set<string>, all: boolean): SearchHit["formatted"] {
  const f = raw._formatted as Raw | undefined;
  if (!f || (attributes.size === 0 && !all)) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(f)) {
    if (!(all || attributes.has(k)) || k === "full_text") continue;
    if (typeof v === "string") out[k] = escapeMarked(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[k] = (v as string[]).map(escapeMarked);
  }
  return out;
}

function clampRatio(r: number | undefined): number {
  if (r === undefined || Number.isNaN(r)) return 0;
  return Math.min(1, Math.max(0, r));
}

/** Judgments pinned first for a citation query at most (a case number names one judgment per court). */
const MAX_PINNED = 20;

/** A Meilisearch filter string literal. */
const meiliString = (s: string) => `"${s.replace(/["\\]/g, (c) => "\\" + c)}"`;

const elapsed = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export class MeilisearchEngine implements SearchEngine {
  readonly name = "meilisearch" as const;
  readonly sync: SyncPort;
  readonly uids: IndexUids;
  private readonly client: Meilisearch;
  private readonly cfg: MeiliConfig;
  private readonly embedder: Embedder;
  private readonly now: () => number;
  private liveReady: Promise<void> | null = null;

  constructor(options: MeilisearchEngineOptions) {
    this.cfg = options.config;
    this.embedder = options.embedder;
    this.now = options.now ?? Date.now;
    this.uids = indexUids(this.cfg.index);
    this.client = new Meilisearch({
      host: this.cfg.host,
      apiKey: this.cfg.apiKey,
      timeout: this.cfg.timeoutMs,
      defaultWaitOptions: { timeout: this.cfg.taskTimeoutMs, interval: this.cfg.taskPollMs },
    });
    this.sync = {
      beginFull: (o) => this.beginFull(o),
      upsert: (b) => this.upsert(b),
      delete: (ids) => this.deleteDocuments(ids),
    };
  }

  // ---- tasks and settings ---------------------------------------------------------------------------------------

  /** Wait for an enqueued task through the task API; anything but `succeeded` is an error. */
  private async run(what: string, enqueued: EnqueuedTaskPromise): Promise<Task> {
    let task: Task;
    try {
      task = await enqueued.waitTask({ timeout: this.cfg.taskTimeoutMs, interval: this.cfg.taskPollMs });
    } catch (e) {
      throw mapMeiliError(e, what);
    }
    if (task.status !== "succeeded") throw taskFailed(what, task);
    return task;
  }

  private index(uid: string): Index<Raw> {
    return this.client.index<Raw>(uid);
  }

  private async indexExists(uid: string): Promise<boolean> {
    try {
      await this.index(uid).getRawInfo();
      return true;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return false;
      throw mapMeiliError(e, `reading index ${uid}`);
    }
  }

  private async createIndex(uid: string): Promise<void> {
    await this.run(`create index ${uid}`, this.client.createIndex(uid, { primaryKey: "id" }));
  }

  /** PATCH the settings, wait for the task, read them back and compare (throws when the engine disagrees). */
  private async applySettings(uid: string, phase: string, wanted: Settings): Promise<void> {
    await this.run(`${phase} settings of ${uid}`, this.index(uid).updateSettings(wanted));
    let actual: Settings;
    try {
      actual = await this.index(uid).getSettings();
    } catch (e) {
      throw mapMeiliError(e, `reading settings of ${uid}`);
    }
    const diff = diffSettings(wanted, actual);
    if (diff.length > 0) {
      throw new SearchEngineError(`Meilisearch ${phase} settings of ${uid} did not apply: ${diff.join("; ")}`, {
        code: "SEARCH_SETTINGS_MISMATCH",
      });
    }
  }

  /** The two phases of each index kind. */
  private phases(kind: keyof IndexUids): Array<[phase: string, settings: Settings]> {
    const embedders: [string, Settings] = ["embedder", embedderPhase(this.cfg.embedder, this.embedder)];
    if (kind === "documents") return [["index", documentsPhase1()], embedders];
    if (kind === "chunks") return [["index", chunksPhase1()], embedders];
    return [["index", suggestionsPhase1()]];
  }

  /** Create an index (if needed) and apply both phases; `onlyIfDifferent` skips phases already in force. */
  private async prepare(kind: keyof IndexUids, uid: string, onlyIfDifferent: boolean): Promise<void> {
    const exists = onlyIfDifferent ? await this.indexExists(uid) : false;
    if (!exists) await this.createIndex(uid);
    let current: Settings | null = null;
    if (exists) {
      try {
        current = await this.index(uid).getSettings();
      } catch (e) {
        throw mapMeiliError(e, `reading settings of ${uid}`);
      }
    }
    for (const [phase, wanted] of this.phases(kind)) {
      if (current && diffSettings(wanted, current).length === 0) continue;
      await this.applySettings(uid, phase, wanted);
    }
  }

  /**
   * Make sure the live indexes exist with the declared settings (both phases), applying only what differs. Runs
   * once per process before the first write; `npm run search:sync` calls it explicitly.
   */
  async applyIndexSettings(): Promise<void> {
    this.liveReady ??= (async () => {
      for (const kind of ["documents", "chunks", "suggestions"] as const) await this.prepare(kind, this.uids[kind], true);
    })().catch((e: unknown) => {
      this.liveReady = null;
      throw e;
    });
    return this.liveReady;
  }

  // ---- search -----------------------------------------------------------------------------------------------------

  private filterString(node: FilterNode | undefined): string | undefined {
    return node ? toMeiliFilter(node) : undefined;
  }

  /**
   * A document search with exact citation matches first (issue 12 item 6; docs/meilisearch.md "Citation lookup"):
   * when the query holds a case number or neutral citation (../citations.ts), a second search in parallel asks for
   * the judgments whose `citation_keys` (derived at indexing, filterable) hold one of its keys, under the same
   * filter; those come first (score 1, ordered by id, highlighted as in the main results when they are among them),
   * then the main ranking without them. Queries without a citation run exactly as before.
   */
  private async searchWithPins(body: SearchParams, what: string, semantic = false): Promise<SearchResponse<Raw>> {
    const keys = queryCitationKeys(typeof body.q === "string" ? body.q : "");
    const searchOn = body.attributesToSearchOn;
    if (keys.length === 0 || (searchOn?.length && !searchOn.some((a) => (CITATION_FIELDS as readonly string[]).includes(a)))) {
      return this.rawSearch(this.uids.documents, body, what, semantic);
    }
    const offset = body.offset ?? 0;
    const limit = body.limit ?? 20;
    const retrieve = body.attributesToRetrieve && !body.attributesToRetrieve.includes("id") && !body.attributesToRetrieve.includes("*")
      ? [...body.attributesToRetrieve, "id"]
      : body.attributesToRetrieve;
    const keyFilter = `${CITATION_KEYS_ATTRIBUTE} IN [${keys.map(meiliString).join(", ")}]`;
    const pinBody: SearchParams = {
      q: "",
      limit: MAX_PINNED,
      offset: 0,
      filter: typeof body.filter === "string" ? `(${body.filter}) AND ${keyFilter}` : keyFilter,
      showRankingScore: true,
    };
    for (const k of ["attributesToHighlight", "highlightPreTag", "highlightPostTag", "attributesToCrop", "cropLength", "cropMarker"] as const) {
      if (body[k] !== undefined) (pinBody as Record<string, unknown>)[k] = body[k];
    }
    if (retrieve) pinBody.attributesToRetrieve = retrieve;
    const mainBody: SearchParams = { ...body, offset: 0, limit: Math.min(offset + limit + MAX_PINNED, MAX_TOTAL_HITS) };
    if (retrieve) mainBody.attributesToRetrieve = retrieve;
    const [main, pinned] = await Promise.all([
      this.rawSearch(this.uids.documents, mainBody, what, semantic),
      // An index whose settings or documents predate citation_keys answers without pins rather than failing.
      this.rawSearch(this.uids.documents, pinBody, what).catch(() => null),
    ]);
    if (!pinned || pinned.hits.length === 0) return { ...main, hits: main.hits.slice(offset, offset + limit), offset, limit };
    const inMain = new Map(main.hits.map((h) => [String(h.id), h]));
    const pins = pinned.hits
      .map((h): (typeof main.hits)[number] => ({ ...(inMain.get(String(h.id)) ?? h), _rankingScore: 1 }))
      .sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
    const pinIds = new Set(pins.map((h) => String(h.id)));
    const merged = [...pins, ...main.hits.filter((h) => !pinIds.has(String(h.id)))];
    const outside = pins.filter((h) => !inMain.has(String(h.id))).length;
    const estimated = (main.estimatedTotalHits ?? main.totalHits ?? main.hits.length) + outside;
    return { ...main, hits: merged.slice(offset, offset + limit), estimatedTotalHits: estimated, offset, limit };
  }

  private async rawSearch(uid: string, body: SearchParams, what: string, semantic = false): Promise<SearchResponse<Raw>> {
    try {
      // The client posts `{q, ...options}` to /indexes/:uid/search; q travels inside the body.
      const { q, ...rest } = body;
      return await this.index(uid).search<Raw>(q ?? "", rest);
    } catch (e) {
      throw mapMeiliError(e, what, { semantic });
    }
  }

  /** The query vector when this request is semantic: given, or embedded with our Embedder (timed). */
  private async queryVector(q: string, given: number[] | undefined): Promise<{ vector: number[]; ms: number }> {
    if (given) return { vector: given, ms: 0 };
    const t0 = performance.now();
    let vector: number[];
    try {
      vector = await this.embedder.embedQuery(q);
    } catch (e) {
      // The embedding provider is down or slow (reliability row 18): a 503 with a stable code, as the LanceDB engine.
      throw new SearchEngineError("The query could not be embedded", { cause: e, code: "EMBEDDING_FAILED" });
    }
    return { vector, ms: elapsed(t0) };
  }

  /** The request body of a document search (exported shape is asserted by the adapter tests). */
  documentSearchBody(req: SearchDocumentsRequest, vector?: number[], ratio = 0): SearchParams {
    for (const s of req.sort ?? []) {
      if (!SORTABLE_ATTRIBUTES.includes(s.attribute)) throw new FilterAttributeError(s.attribute, 0, "sortable");
    }
    const body: SearchParams = {
      q: req.q,
      limit: req.limit,
      offset: req.offset,
      matchingStrategy: req.matchingStrategy ?? "last",
      showRankingScore: true,
    };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    if (req.sort?.length) body.sort = req.sort.map((s) => `${s.attribute}:${s.direction}`);
    if (req.facets?.length) body.facets = [...req.facets];
    if (req.attributesToSearchOn?.length) body.attributesToSearchOn = [...req.attributesToSearchOn];
    if (req.attributesToRetrieve?.length) body.attributesToRetrieve = req.attributesToRetrieve.filter((a) => a !== "full_text");
    if (req.attributesToHighlight?.length) {
      body.attributesToHighlight = [...req.attributesToHighlight];
      body.highlightPreTag = HIGHLIGHT_PRE_TAG;
      body.highlightPostTag = HIGHLIGHT_POST_TAG;
    }
    if (req.attributesToCrop?.length) {
      body.attributesToCrop = [...req.attributesToCrop];
      body.cropLength = req.cropLength ?? 10;
      body.cropMarker = "…";
    }
    if (vector && ratio > 0) {
      body.hybrid = { embedder: this.cfg.embedder, semanticRatio: ratio };
      body.vector = vector;
    }
    return body;
  }

  private toResponse(
    res: SearchResponse<Raw>,
    req: Pick<SearchDocumentsRequest, "attributesToHighlight" | "attributesToCrop">,
    t0: number,
    embeddingTimeMs: number,
    ratio: number,
  ): SearchDocumentsResponse {
    const fmtAttrs = new Set([...(req.attributesToHighlight ?? []), ...(req.attributesToCrop ?? [])]);
    const all = fmtAttrs.has("*");
    const estimated = res.estimatedTotalHits ?? res.totalHits ?? res.hits.length;
    const out: SearchDocumentsResponse = {
      hits: res.hits.map((h) => {
        const hit: SearchHit = { document: toHitDocument(h), score: typeof h._rankingScore === "number" ? h._rankingScore : 0 };
        const formatted = formattedOf(h, fmtAttrs, all);
        if (formatted) hit.formatted = formatted;
        return hit;
      }),
      estimatedTotal: Math.min(estimated, MAX_TOTAL_HITS),
      // The engine stops counting at maxTotalHits, so reaching it means "at least that many".
      totalCapped: estimated >= MAX_TOTAL_HITS,
      processingTimeMs: elapsed(t0),
      embeddingTimeMs,
      semanticRatio: ratio,
      query: res.query,
    };
    if (res.facetDistribution) out.facetDistribution = res.facetDistribution;
    return out;
  }

  async searchDocuments(req: SearchDocumentsRequest): Promise<SearchDocumentsResponse> {
    const t0 = performance.now();
    const asked = clampRatio(req.semanticRatio);
    // A placeholder search ("") has nothing to embed: it is keyword/filter only unless a vector was given.
    const semantic = asked > 0 && (req.q.trim() !== "" || req.vector !== undefined);
    let vector: number[] | undefined;
    let embeddingTimeMs = 0;
    if (semantic) {
      const v = await this.queryVector(req.q, req.vector);
      vector = v.vector;
      embeddingTimeMs = v.ms;
    }
    const ratio = semantic ? asked : 0;
    const body = this.documentSearchBody(req, vector, ratio);
    const res = await this.searchWithPins(body, "search", semantic);
    return this.toResponse(res, req, t0, embeddingTimeMs, ratio);
  }

  async searchChunks(req: SearchChunksRequest): Promise<SearchChunksResponse> {
    const t0 = performance.now();
    if (req.filter) {
      for (const a of filterAttributes(req.filter)) {
        if (!CHUNK_FILTERABLE_ATTRIBUTES.includes(a)) throw new FilterAttributeError(a, 0);
      }
    }
    const { vector, ms } = await this.queryVector(req.query, req.vector);
    // Pure vector search (semanticRatio 1; q is not used for ranking then), like the LanceDB adapter.
    const body: SearchParams = {
      q: "",
      vector,
      hybrid: { embedder: this.cfg.embedder, semanticRatio: 1 },
      limit: req.limit,
      showRankingScore: true,
      attributesToRetrieve: ["judgmentId", "position", "text"],
    };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    const res = await this.rawSearch(this.uids.chunks, body, "chunk search", true);
    const hits = res.hits
      .map((h) => ({
        judgmentId: String(h.judgmentId),
        position: Number(h.position),
        text: String(h.text ?? ""),
        // For a pure vector query Meilisearch reports the ranking score as (1 + cosine) / 2.
        similarity: typeof h._rankingScore === "number" ? 2 * h._rankingScore - 1 : 0,
      }))
      .filter((h) => req.minSimilarity === undefined || h.similarity >= req.minSimilarity);
    return { hits, processingTimeMs: elapsed(t0), embeddingTimeMs: ms };
  }

  async similar(req: SimilarRequest): Promise<SimilarResponse> {
    const t0 = performance.now();
    if (!DOC_ID.test(req.id)) throw new DocumentNotFoundError(req.id);
    const body: SearchSimilarDocumentsParams = { id: req.id, embedder: this.cfg.embedder, limit: req.limit, showRankingScore: true };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    if (req.attributesToRetrieve?.length) body.attributesToRetrieve = req.attributesToRetrieve.filter((a) => a !== "full_text");
    try {
      const res = await this.index(this.uids.documents).searchSimilarDocuments<Raw>(body);
      return {
        hits: res.hits.map((h) => ({ document: toHitDocument(h), score: typeof h._rankingScore === "number" ? h._rankingScore : 0 })),
        mode: "vector",
        processingTimeMs: elapsed(t0),
      };
    } catch (e) {
      const code = meiliErrorCode(e);
      if (code === "not_found_similar_id" || code === "document_not_found") throw new DocumentNotFoundError(req.id);
      // No vectors to compare (embedder not registered, or the judgment has none): more-like-this by keywords.
      if (!(code && (EMBEDDER_MISSING_CODES.has(code) || code === "invalid_similar_id"))) throw mapMeiliError(e, "similar");
    }
    return this.moreLikeThis(req, t0);
  }

  private async moreLikeThis(req: SimilarRequest, t0: number): Promise<SimilarResponse> {
    const [doc] = await this.getDocuments([req.id], ["id", "title", "keywords", "legal_topics"]);
    if (!doc) throw new DocumentNotFoundError(req.id);
    const text = [doc.title, doc.keywords, doc.legal_topics]
      .flatMap((v): unknown[] => (Array.isArray(v) ? v : [v]))
      .filter((v): v is string => typeof v === "string")
      .join(" ");
    const q = (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MORE_LIKE_THIS_WORDS).join(" ");
    const body: SearchParams = {
      q,
      limit: req.limit + 1,
      // "frequency" drops the most common words first: the right behaviour for a long, document-made query.
      matchingStrategy: "frequency",
      showRankingScore: true,
    };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    if (req.attributesToRetrieve?.length) body.attributesToRetrieve = req.attributesToRetrieve.filter((a) => a !== "full_text");
    const res = await this.rawSearch(this.uids.documents, body, "similar (keywords)");
    return {
      hits: res.hits
        .filter((h) => String(h.id) !== req.id)
        .slice(0, req.limit)
        .map((h) => ({ document: toHitDocument(h), score: typeof h._rankingScore === "number" ? h._rankingScore : 0 })),
      mode: "more_like_this",
      processingTimeMs: elapsed(t0),
    };
  }

  /** Autocomplete with the spec's fixed defaults (../index-settings.ts AUTOCOMPLETE_DEFAULTS) plus topic hits. */
  autocompleteBody(req: AutocompleteRequest): SearchParams {
    const d = AUTOCOMPLETE_DEFAULTS;
    const body: SearchParams = {
      q: req.q,
      limit: req.limit,
      offset: 0,
      attributesToSearchOn: [...d.attributesToSearchOn],
      attributesToRetrieve: [...d.attributesToRetrieve],
      attributesToHighlight: [...d.attributesToHighlight],
      highlightPreTag: d.highlightPreTag,
      highlightPostTag: d.highlightPostTag,
      attributesToCrop: [...d.attributesToCrop],
      cropLength: d.cropLength,
      cropMarker: "…",
      matchingStrategy: d.matchingStrategy,
      showRankingScore: true,
    };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    return body;
  }

  async autocomplete(req: AutocompleteRequest): Promise<AutocompleteResponse> {
    const t0 = performance.now();
    const [res, topicHits] = await Promise.all([
      this.searchWithPins(this.autocompleteBody(req), "autocomplete"),
      this.topicHits(req.q, TOPIC_HITS_LIMIT),
    ]);
    const fmt = {
      attributesToHighlight: [...AUTOCOMPLETE_DEFAULTS.attributesToHighlight],
      attributesToCrop: [...AUTOCOMPLETE_DEFAULTS.attributesToCrop],
    };
    const mapped = this.toResponse(res, fmt, t0, 0, 0);
    return { hits: mapped.hits, estimatedTotal: mapped.estimatedTotal, processingTimeMs: elapsed(t0), topicHits, query: req.q };
  }

  /** Suggestions index search; before the first full sync there is no such index and so no suggestion. */
  private async suggestionSearch(body: SearchParams, what: string): Promise<Raw[]> {
    try {
      const { q, ...rest } = body;
      return (await this.index(this.uids.suggestions).search<Raw>(q ?? "", rest)).hits;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return [];
      throw mapMeiliError(e, what);
    }
  }

  private async topicHits(q: string, limit: number): Promise<TopicHit[]> {
    if (q.trim() === "") return [];
    const hits = await this.suggestionSearch(
      { q, limit, filter: 'kind = "topic"', matchingStrategy: "all", attributesToRetrieve: ["text", "score"] },
      "topic hits",
    );
    // SuggestionMiner scores a topic as 2 × the number of judgments carrying it.
    return hits.map((h) => ({ topic: String(h.text), count: Math.round(Number(h.score) / 2) }));
  }

  async suggest(req: SuggestRequest): Promise<SuggestResponse> {
    const t0 = performance.now();
    const hits = await this.suggestionSearch(
      { q: req.q, limit: req.limit, matchingStrategy: "all", attributesToRetrieve: ["text", "score", "kind"] },
      "suggest",
    );
    const suggestions: Suggestion[] = hits.map((h) => ({
      text: String(h.text),
      score: Number(h.score),
      kind: h.kind === "topic" ? "topic" : "phrase",
    }));
    return { suggestions, processingTimeMs: elapsed(t0) };
  }

  async facets(req: FacetsRequest): Promise<FacetsResponse> {
    const t0 = performance.now();
    const body: SearchParams = { q: req.q ?? "", limit: 0, facets: [...req.facets] };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    const res = await this.rawSearch(this.uids.documents, body, "facets");
    const max = req.maxValuesPerFacet ?? 20;
    const needle = req.facetQuery?.trim().toLocaleLowerCase();
    const facetDistribution: Record<string, Record<string, number>> = {};
    for (const f of req.facets) {
      const entries = Object.entries(res.facetDistribution?.[f] ?? {})
        .filter(([value]) => !needle || value.toLocaleLowerCase().includes(needle))
        .sort(([va, a], [vb, b]) => b - a || va.localeCompare(vb))
        .slice(0, max);
      facetDistribution[f] = Object.fromEntries(entries);
    }
    const total = Math.min(res.estimatedTotalHits ?? 0, MAX_TOTAL_HITS);
    return { facetDistribution, total, processingTimeMs: elapsed(t0) };
  }

  async getDocuments(ids: string[], attributesToRetrieve?: string[]): Promise<HitDocument[]> {
    const wanted = [...new Set(ids.filter((id) => DOC_ID.test(id)))];
    if (wanted.length === 0) return [];
    const fields = attributesToRetrieve?.filter((a) => a !== "full_text");
    let results: Raw[];
    try {
      const res = await this.index(this.uids.documents).getDocuments<Raw>({
        ids: wanted,
        limit: wanted.length,
        ...(fields?.length ? { fields } : {}),
      });
      results = res.results;
    } catch (e) {
      throw mapMeiliError(e, "get documents");
    }
    const byId = new Map(results.map((r) => [String(r.id), toHitDocument(r)]));
    return ids.map((id) => byId.get(id)).filter((d): d is HitDocument => d !== undefined);
  }

  // ---- sync -------------------------------------------------------------------------------------------------------

  private documentBody(d: IndexDocument, vector: number[]): Raw {
    return { ...d, [CITATION_KEYS_ATTRIBUTE]: documentCitationKeys(d), _vectors: { [this.cfg.embedder]: vector } };
  }

  private chunkBody(c: ChunkRecord): Raw {
    const body: Raw = {
      id: chunkDocumentId(c.judgmentId, c.position),
      judgmentId: c.judgmentId,
      position: c.position,
      tokenStart: c.tokenStart,
      text: c.text,
      _vectors: { [this.cfg.embedder]: c.vector },
    };
    if (c.jurisdiction !== undefined) body.jurisdiction = c.jurisdiction;
    if (c.decision_date_ts !== undefined) body.decision_date_ts = c.decision_date_ts;
    return body;
  }

  private judgmentIdsFilter(ids: string[]): string {
    return toMeiliFilter({ type: "in", attribute: "judgmentId", values: ids, negated: false });
  }

  private async upsert(batch: IndexBatch): Promise<SyncCounts> {
    await this.applyIndexSettings();
    const ids = batch.documents.map((d) => d.document.id);
    if (ids.length === 0 && batch.chunks.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    // Enqueue in this order; the engine processes tasks in order, so old chunks go before the new ones arrive.
    const docs = this.index(this.uids.documents);
    const chunks = this.index(this.uids.chunks);
    const pending: Array<[string, EnqueuedTaskPromise]> = [];
    if (ids.length) {
      pending.push(["upsert documents", docs.addDocuments(batch.documents.map((d) => this.documentBody(d.document, d.vector)), { primaryKey: "id" })]);
      pending.push(["delete old chunks", chunks.deleteDocuments({ filter: this.judgmentIdsFilter(ids) })]);
    }
    if (batch.chunks.length) {
      pending.push(["upsert chunks", chunks.addDocuments(batch.chunks.map((c) => this.chunkBody(c)), { primaryKey: "id" })]);
    }
    for (const [what, p] of pending) await this.run(what, p);
    return { documents: ids.length, chunks: batch.chunks.length, deleted: 0 };
  }

  private async deleteDocuments(ids: string[]): Promise<SyncCounts> {
    const valid = ids.filter((id) => DOC_ID.test(id));
    if (valid.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    await this.applyIndexSettings();
    const docsTask = this.index(this.uids.documents).deleteDocuments(valid);
    const chunksTask = this.index(this.uids.chunks).deleteDocuments({ filter: this.judgmentIdsFilter(valid) });
    const done = await this.run("delete documents", docsTask);
    await this.run("delete chunks", chunksTask);
    const deleted = typeof done.details?.deletedDocuments === "number" ? done.details.deletedDocuments : valid.length;
    return { documents: 0, chunks: 0, deleted };
  }

  private async beginFull(options: FullSyncOptions = {}): Promise<FullSyncSession> {
    const suffix = `_tmp_${this.now()}`;
    const tmp: IndexUids = {
      documents: this.uids.documents + suffix,
      chunks: this.uids.chunks + suffix,
      suggestions: this.uids.suggestions + suffix,
    };
    const kinds = ["documents", "chunks", "suggestions"] as const;
    try {
      for (const kind of kinds) await this.prepare(kind, tmp[kind], false);
    } catch (e) {
      await this.dropIndexes(Object.values(tmp));
      throw e;
    }
    const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
    let finished = false;
    const guard = () => {
      if (finished) throw new SearchEngineError("This full sync session is already committed or aborted", { code: "SYNC_SESSION_CLOSED" });
    };

    return {
      add: async (batch: IndexBatch) => {
        guard();
        const pending: Array<[string, EnqueuedTaskPromise]> = [];
        if (batch.documents.length) {
          pending.push([
            "add documents (full sync)",
            this.index(tmp.documents).addDocuments(batch.documents.map((d) => this.documentBody(d.document, d.vector)), { primaryKey: "id" }),
          ]);
        }
        if (batch.chunks.length) {
          pending.push(["add chunks (full sync)", this.index(tmp.chunks).addDocuments(batch.chunks.map((c) => this.chunkBody(c)), { primaryKey: "id" })]);
        }
        for (const [what, p] of pending) await this.run(what, p);
        counts.documents += batch.documents.length;
        counts.chunks += batch.chunks.length;
        options.onProgress?.({ ...counts });
      },
      commit: async ({ suggestions }) => {
        guard();
        finished = true;
        for (let i = 0; i < suggestions.length; i += SUGGESTION_BATCH) {
          const docs = suggestions.slice(i, i + SUGGESTION_BATCH).map((s, j) => ({ id: `s${i + j}`, text: s.text, score: s.score, kind: s.kind }));
          await this.run("add suggestions", this.index(tmp.suggestions).addDocuments(docs, { primaryKey: "id" }));
        }
        // One atomic swap of the three pairs; a live index that does not exist yet is created by renaming.
        const swaps = [];
        const oldGeneration: string[] = [];
        for (const kind of kinds) {
          if (await this.indexExists(this.uids[kind])) {
            swaps.push({ indexes: [this.uids[kind], tmp[kind]] as [string, string], rename: false });
            oldGeneration.push(tmp[kind]);
          } else {
            swaps.push({ indexes: [tmp[kind], this.uids[kind]] as [string, string], rename: true });
          }
        }
        try {
          await this.run("swap indexes", this.client.swapIndexes(swaps));
        } catch (e) {
          await this.dropIndexes(Object.values(tmp));
          throw e;
        }
        // After the swap the temporary uids hold the previous generation.
        await this.dropIndexes(oldGeneration);
        // The live indexes now carry the declared settings; writes need not re-check them.
        this.liveReady = Promise.resolve();
        return { ...counts };
      },
      abort: async () => {
        if (finished) return;
        finished = true;
        await this.dropIndexes(Object.values(tmp));
      },
    };
  }

  private async dropIndexes(uids: string[]): Promise<void> {
    for (const uid of uids) {
      try {
        await this.run(`delete index ${uid}`, this.client.deleteIndex(uid));
      } catch (e) {
        // Already gone is fine (abort after a failed create, rename swaps).
        if (!(e instanceof SearchEngineError && /index_not_found/.test(e.message))) throw e;
      }
    }
  }

  // ---- settings, health -------------------------------------------------------------------------------------------

  async settings(): Promise<IndexSettings> {
    let s: Settings;
    try {
      s = await this.index(this.uids.documents).getSettings();
    } catch (e) {
      throw mapMeiliError(e, "reading settings");
    }
    const names = (list: unknown): string[] =>
      Array.isArray(list)
        ? list.flatMap((x) => (typeof x === "string" ? [x] : ((x as { attributePatterns?: string[] }).attributePatterns ?? [])))
        : [];
    const out: IndexSettings = {
      searchableAttributes: names(s.searchableAttributes),
      // citation_keys is the adapter's own (citation lookup), not part of the declared index.
      filterableAttributes: names(s.filterableAttributes).filter((a) => a !== CITATION_KEYS_ATTRIBUTE),
      sortableAttributes: names(s.sortableAttributes),
      displayedAttributes: names(s.displayedAttributes),
      rankingRules: names(s.rankingRules),
      typoTolerance: {
        enabled: s.typoTolerance?.enabled ?? true,
        minWordSizeForTypos: {
          oneTypo: s.typoTolerance?.minWordSizeForTypos?.oneTypo ?? 5,
          twoTypos: s.typoTolerance?.minWordSizeForTypos?.twoTypos ?? 9,
        },
      },
      pagination: { maxTotalHits: s.pagination?.maxTotalHits ?? MAX_TOTAL_HITS },
    };
    const registered = s.embedders?.[this.cfg.embedder];
    if (registered && registered.source === "userProvided") {
      out.embedders = { [this.cfg.embedder]: { source: "userProvided", dimensions: registered.dimensions } };
    }
    return out;
  }

  private async documentCount(uid: string): Promise<number> {
    try {
      return (await this.index(uid).getStats()).numberOfDocuments;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return 0;
      throw e;
    }
  }

  /** Indexing state for the health page (D-20 sync state): running tasks, last update, document counts. */
  async syncState(): Promise<MeiliSyncState> {
    try {
      const stats = await this.client.getStats();
      const of = (uid: string) => stats.indexes[uid];
      return {
        isIndexing: Object.values(this.uids).some((uid) => of(uid)?.isIndexing === true),
        lastUpdate: stats.lastUpdate ?? null,
        documents: of(this.uids.documents)?.numberOfDocuments ?? 0,
        chunks: of(this.uids.chunks)?.numberOfDocuments ?? 0,
        suggestions: of(this.uids.suggestions)?.numberOfDocuments ?? 0,
      };
    } catch (e) {
      throw mapMeiliError(e, "stats");
    }
  }

  async health(): Promise<EngineHealth> {
    const embedderInfo = { id: this.embedder.id, label: this.embedder.label, dimensions: this.embedder.dimensions, registered: false };
    const down = (message: string): EngineHealth => ({ engine: "meilisearch", status: "down", documents: 0, chunks: 0, embedder: embedderInfo, message });
    try {
      await this.client.health();
    } catch (e) {
      return down(mapMeiliError(e, "health").message);
    }
    try {
      const [version, documents, chunks] = await Promise.all([
        this.client.getVersion(),
        this.documentCount(this.uids.documents),
        this.documentCount(this.uids.chunks),
      ]);
      let problem: string | undefined;
      try {
        const embedders = await this.index(this.uids.documents).getEmbedders();
        const e = embedders?.[this.cfg.embedder];
        embedderInfo.registered = e?.source === "userProvided" && e.dimensions === this.embedder.dimensions;
        if (!e) problem = `embedder \`${this.cfg.embedder}\` is not registered on the index (semantic search answers 502)`;
        else if (!embedderInfo.registered) problem = `embedder \`${this.cfg.embedder}\` on the index does not match the configured embedder`;
      } catch (e) {
        if (meiliErrorCode(e) !== "index_not_found") throw e;
        problem = `index \`${this.uids.documents}\` does not exist yet (run a full sync)`;
      }
      return {
        engine: "meilisearch",
        status: problem ? "degraded" : "ok",
        documents,
        chunks,
        embedder: embedderInfo,
        message: problem ? `Meilisearch ${version.pkgVersion}: ${problem}` : `Meilisearch ${version.pkgVersion}`,
      };
    } catch (e) {
      return { ...down(mapMeiliError(e, "health").message), status: "degraded" };
    }
  }

  async close(): Promise<void> {
    // The client is stateless (fetch); nothing to release.
  }
}
