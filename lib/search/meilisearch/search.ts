/**
 * The search side of the Meilisearch adapter: request bodies in the documented shape, exact citation matches first,
 * hybrid and chunk search with our own query vectors, `similar` (with a keyword more-like-this when the index has
 * no vectors), autocomplete with topic hits, suggestions, facets and documents by id.
 */
import type { SearchParams, SearchResponse, SearchSimilarDocumentsParams } from "meilisearch";
import { CITATION_FIELDS, queryCitationKeys } from "../citations";
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
} from "../index-settings";
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  Embedder,
  FacetsRequest,
  FacetsResponse,
  HitDocument,
  SearchChunksRequest,
  SearchChunksResponse,
  SearchDocumentsRequest,
  SearchDocumentsResponse,
  SearchHit,
  SimilarRequest,
  SimilarResponse,
  SuggestRequest,
  SuggestResponse,
  Suggestion,
  TopicHit,
} from "../types";
import { elapsed, type MeiliConnection, type Raw } from "./connection";
import { EMBEDDER_MISSING_CODES, mapMeiliError, meiliErrorCode } from "./errors";
import { DOC_ID, formattedOf, toHitDocument } from "./hits";
import { mergeMarks } from "./merge-marks";
import { demoteNameTypos, keepRequestedMarks, NAME_TYPO_LOOKAHEAD, ProperNameList, queryTokens, wordsAtRisk, type GuardedWord } from "./name-typos";
import { CITATION_KEYS_ATTRIBUTE } from "./settings";

/** Topic hits returned with autocomplete. */
export const TOPIC_HITS_LIMIT = 5;

/** Words of the judgment used as the query of the keyword fallback of `similar` (no embedder registered). */
const MORE_LIKE_THIS_WORDS = 12;

function clampRatio(r: number | undefined): number {
  if (r === undefined || Number.isNaN(r)) return 0;
  return Math.min(1, Math.max(0, r));
}

/** Judgments pinned first for a citation query at most (a case number names one judgment per court). */
const MAX_PINNED = 20;

/** A Meilisearch filter string literal. */
const meiliString = (s: string) => `"${s.replace(/["\\]/g, (c) => "\\" + c)}"`;

export class MeiliSearcher {
  /** The corpus's proper names, for the typo guard (name-typos.ts). */
  private readonly properNames: ProperNameList;

  constructor(
    private readonly conn: MeiliConnection,
    /** Embeds queries (hybrid, chunk search). */
    private readonly embedder: Embedder,
  ) {
    this.properNames = new ProperNameList(conn);
  }

  private filterString(node: FilterNode | undefined): string | undefined {
    return node ? toMeiliFilter(node) : undefined;
  }

  /**
   * A document search with exact citation matches first (docs/meilisearch.md "Citation lookup"):
   * when the query holds a case number or neutral citation (../citations.ts), a second search in parallel asks for
   * the judgments whose `citation_keys` (derived at indexing, filterable) hold one of its keys, under the same
   * filter; those come first (score 1, ordered by id, highlighted as in the main results when they are among them),
   * then the main ranking without them. Queries without a citation run exactly as before.
   */
  private async searchWithPins(body: SearchParams, what: string, semantic = false): Promise<SearchResponse<Raw>> {
    const keys = queryCitationKeys(typeof body.q === "string" ? body.q : "");
    const searchOn = body.attributesToSearchOn;
    if (keys.length === 0 || (searchOn?.length && !searchOn.some((a) => (CITATION_FIELDS as readonly string[]).includes(a)))) {
      return this.rawSearch(this.conn.uids.documents, body, what, semantic);
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
      this.rawSearch(this.conn.uids.documents, mainBody, what, semantic),
      // An index whose settings or documents predate citation_keys answers without pins rather than failing.
      this.rawSearch(this.conn.uids.documents, pinBody, what).catch(() => null),
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
      return await this.conn.index(uid).search<Raw>(q ?? "", rest);
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
      body.hybrid = { embedder: this.conn.cfg.embedder, semanticRatio: ratio };
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
    const alternatives = orAlternatives(req.q);
    if (alternatives.length > 1 || (req.fieldTerms?.length ?? 0) > 0) {
      const res = await this.searchExpanded(req, alternatives, vector, ratio, semantic);
      return this.toResponse(res, req, t0, embeddingTimeMs, ratio);
    }
    const body = this.documentSearchBody(req, vector, ratio);
    // Ranked by relevance, a typo of an ordinary word must not rank a name's judgment first (name-typos.ts); a sort,
    // or a citation pinned first, decides the order itself.
    const names = req.sort?.length || queryCitationKeys(req.q).length ? null : await this.properNames.names();
    const atRisk = names ? wordsAtRisk(req.q, names) : [];
    const res = atRisk.length && names
      ? await this.searchGuarded(body, atRisk, names, semantic)
      : await this.searchWithPins(body, "search", semantic);
    return this.toResponse(res, req, t0, embeddingTimeMs, ratio);
  }

  /**
   * A relevance search whose query has a word at risk of a typo landing on a proper name (name-typos.ts): read
   * NAME_TYPO_LOOKAHEAD hits past the page with every retrieved attribute highlighted, move the hits that match the
   * word only through names after the others, then give back the page with the marks the caller asked for.
   */
  private async searchGuarded(body: SearchParams, atRisk: GuardedWord[], names: ReadonlySet<string>, semantic: boolean): Promise<SearchResponse<Raw>> {
    const offset = body.offset ?? 0;
    const limit = body.limit ?? 20;
    const wide: SearchParams = {
      ...body,
      offset: 0,
      limit: Math.min(offset + limit + NAME_TYPO_LOOKAHEAD, MAX_TOTAL_HITS),
      attributesToHighlight: ["*"],
      highlightPreTag: HIGHLIGHT_PRE_TAG,
      highlightPostTag: HIGHLIGHT_POST_TAG,
    };
    const res = await this.searchWithPins(wide, "search", semantic);
    const page = demoteNameTypos(res.hits, atRisk, names)
      .slice(offset, offset + limit)
      .map((h) => keepRequestedMarks(h, body.attributesToHighlight));
    return { ...res, hits: page, offset, limit };
  }

  /**
   * What Meilisearch's query syntax lacks (docs/meilisearch.md "Query language"): `a OR b` (words or quoted phrases)
   * runs one search per alternative query, merged by ranking score, a judgment found by several showing every
   * alternative's marks; field terms (`court:`…) are one search per term restricted to its
   * attribute (`attributesToSearchOn`, every word quoted: exact, all required) whose ids the merged hits must be among.
   * Each search reads up to maxTotalHits (the reported-hits cap), so totals are exact up to that cap.
   */
  private async searchExpanded(
    req: SearchDocumentsRequest,
    alternatives: string[],
    vector: number[] | undefined,
    ratio: number,
    semantic: boolean,
  ): Promise<SearchResponse<Raw>> {
    const full = { ...req, offset: 0, limit: MAX_TOTAL_HITS };
    const filter = this.filterString(req.filter);
    const [runs, allowed] = await Promise.all([
      Promise.all(alternatives.map((q) => this.searchWithPins(this.documentSearchBody({ ...full, q }, vector, ratio), "search", semantic))),
      Promise.all(
        (req.fieldTerms ?? []).map(async (t) => {
          const body: SearchParams = {
            q: t.words.map((w) => `"${w.replace(/"/g, "")}"`).join(" "),
            attributesToSearchOn: [t.attribute],
            matchingStrategy: "all",
            limit: MAX_TOTAL_HITS,
            offset: 0,
            attributesToRetrieve: ["id"],
          };
          if (filter !== undefined) body.filter = filter;
          const r = await this.rawSearch(this.conn.uids.documents, body, "search");
          return new Set(r.hits.map((h) => String(h.id)));
        }),
      ),
    ]);
    const best = new Map<string, Raw>();
    // Every search's hit of a judgment: the page's hits carry every alternative's marks (merge-marks.ts).
    const found = new Map<string, Raw[]>();
    for (const run of runs) {
      for (const h of run.hits) {
        const id = String(h.id);
        if (allowed.some((a) => !a.has(id))) continue;
        const prev = best.get(id);
        if (!prev || Number(h._rankingScore ?? 0) > Number(prev._rankingScore ?? 0)) best.set(id, h);
        const all = found.get(id);
        if (all) all.push(h);
        else found.set(id, [h]);
      }
    }
    // One alternative keeps its own order (a sort, pins); several are merged by score.
    const merged = runs.length === 1 ? [...best.values()] : [...best.values()].sort((a, b) => Number(b._rankingScore ?? 0) - Number(a._rankingScore ?? 0));
    const page = merged.slice(req.offset, req.offset + req.limit).map((h) => {
      const all = found.get(String(h.id)) ?? [];
      return all.length > 1 ? mergeMarks(h, all.filter((o) => o !== h)) : h;
    });
    return { ...runs[0], hits: page, estimatedTotalHits: merged.length, offset: req.offset, limit: req.limit };
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
      hybrid: { embedder: this.conn.cfg.embedder, semanticRatio: 1 },
      limit: req.limit,
      showRankingScore: true,
      attributesToRetrieve: ["judgmentId", "position", "text"],
    };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    const res = await this.rawSearch(this.conn.uids.chunks, body, "chunk search", true);
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
    const body: SearchSimilarDocumentsParams = { id: req.id, embedder: this.conn.cfg.embedder, limit: req.limit, showRankingScore: true };
    const filter = this.filterString(req.filter);
    if (filter !== undefined) body.filter = filter;
    if (req.attributesToRetrieve?.length) body.attributesToRetrieve = req.attributesToRetrieve.filter((a) => a !== "full_text");
    try {
      const res = await this.conn.index(this.conn.uids.documents).searchSimilarDocuments<Raw>(body);
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
    const res = await this.rawSearch(this.conn.uids.documents, body, "similar (keywords)");
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
      return (await this.conn.index(this.conn.uids.suggestions).search<Raw>(q ?? "", rest)).hits;
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
    const res = await this.rawSearch(this.conn.uids.documents, body, "facets");
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
      const res = await this.conn.index(this.conn.uids.documents).getDocuments<Raw>({
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
}

/** Most queries an `a OR b` query expands to (each OR doubles them). */
const MAX_OR_QUERIES = 8;

/**
 * The queries `a OR b` stands for in Meilisearch syntax, which has no OR: one per choice of member at each OR group
 * (`a OR "b c" OR d` is one group of three), the connectors dropped (["q"] when there is none). Quoted runs are kept
 * whole, so a phrase stays a Meilisearch phrase. A group that would take the queries past MAX_OR_QUERIES keeps all
 * its members in every query.
 */
export function orAlternatives(q: string): string[] {
  const tokens = queryTokens(q);
  if (!tokens.includes("OR")) return [q];
  // Groups of members joined by OR; every other token is a group of one.
  const groups: string[][] = [];
  let joinNext = false;
  for (const t of tokens) {
    if (t === "OR") {
      joinNext = groups.length > 0;
      continue;
    }
    if (joinNext && !t.startsWith("-")) groups[groups.length - 1].push(t);
    else groups.push([t]);
    joinNext = false;
  }
  let out: string[][] = [[]];
  for (const g of groups) {
    if (g.length > 1 && out.length * g.length <= MAX_OR_QUERIES) out = out.flatMap((ws) => g.map((t) => [...ws, t]));
    else out = out.map((ws) => [...ws, ...g]);
  }
  // The last word keeps its prefix match only when the query ended on it.
  const tail = /\s$/.test(q) ? " " : "";
  return out.map((ws) => ws.join(" ") + tail);
}
