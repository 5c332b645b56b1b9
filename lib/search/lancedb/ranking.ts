/**
 * Ranking a request over one generation (live-index.ts): the placeholder order, the keyword matches under the
 * matching strategy (keyword-matches.ts), the hybrid blend (vector-search.ts) and exact citation matches first.
 * Synchronous: the keyword matches are the segments' scratch, so everything is read before another query runs.
 */
import { CITATION_FIELDS, queryCitationKeys } from "../citations";
import type { Predicate } from "../filter";
import { SEARCHABLE_ATTRIBUTES } from "../index-settings";
import type { SearchDocumentsRequest } from "../types";
import type { MarkTerms } from "./highlight";
import type { Expansion, KeywordSegment, MatchFilter, QueryWord } from "./keyword-segment";
import { properNames } from "./proper-names";
import { KeywordMatches, type Candidate } from "./keyword-matches";
import type { LiveIndex, StoredDoc } from "./live-index";
import { passes, verdictsFor } from "./predicates";
import { parseQuery, type ParsedQuery } from "./query";
import { isMarkableTerm, marksQueryWord } from "../text/markable";
import type { QueryVector } from "./query-vector";
import { docComparator, sortComparator } from "./sort";
import { sliceBounds } from "./top-k";
import { hybridRanking } from "./vector-search";

/** What rank() found: the total, the page asked for in rank order, and every matching id when asked (facets). */
export interface Ranking {
  total: number;
  page: Candidate[];
  ids: string[] | null;
  marks: MarkTerms;
  embeddingTimeMs: number;
  ratio: number;
}

function sortedRanking(
  ranked: Candidate[],
  req: Pick<SearchDocumentsRequest, "offset" | "limit">,
  wantIds: boolean,
  marks: MarkTerms,
  embeddingTimeMs: number,
  ratio: number,
): Ranking {
  return {
    total: ranked.length,
    page: ranked.slice(req.offset, req.offset + req.limit),
    ids: wantIds ? ranked.map((c) => c.id) : null,
    marks,
    embeddingTimeMs,
    ratio,
  };
}

/**
 * The ranking with exact citation matches first: the pins (score 1), then `head` (the ranking's first offset + limit
 * + pins entries) without them; the total and the ids count every pin once.
 */
export function withPins(
  pins: readonly string[],
  head: readonly Candidate[],
  ranking: { total: number; pinsAmong: number; ids: (() => string[]) | null },
  req: Pick<SearchDocumentsRequest, "offset" | "limit">,
): Pick<Ranking, "total" | "page" | "ids"> {
  const pinSet = new Set(pins);
  const ranked = [
    ...pins.map((id): Candidate => ({ id, level: Number.MAX_SAFE_INTEGER, kw: 0, score: 1 })),
    ...head.filter((c) => !pinSet.has(c.id)),
  ];
  const { from, to } = sliceBounds(req.offset, req.offset + req.limit, ranked.length);
  return {
    total: ranking.total - ranking.pinsAmong + pins.length,
    page: ranked.slice(from, to),
    ids: ranking.ids ? [...pins, ...ranking.ids().filter((id) => !pinSet.has(id))] : null,
  };
}

/** The semantic ratio a request asks for, clamped to [0, 1]. */
export function requestRatio(req: Pick<SearchDocumentsRequest, "semanticRatio">): number {
  return Math.max(0, Math.min(1, req.semanticRatio ?? 0));
}

/** Whether ranking this request needs the query's vector (a query to rank with a semantic ratio). */
export function needsQueryVector(req: Pick<SearchDocumentsRequest, "q" | "semanticRatio">): boolean {
  return req.q.trim() !== "" && requestRatio(req) > 0;
}

/**
 * Rank every match (shared by searchDocuments and facets): the total, the page [offset, offset + limit) and, with
 * `wantIds`, every matching id. `embedded` is the query's vector when needsQueryVector(req).
 */
export function rank(
  live: LiveIndex,
  req: SearchDocumentsRequest,
  pred: Predicate | null,
  embedded: QueryVector | null,
  wantIds: boolean,
  parsed: ParsedQuery = parseQuery(req.q),
): Ranking {
  const ratio = requestRatio(req);
  const q = req.q.trim();
  let ranked: Candidate[];
  // A query of exclusions only ("-robbery") ranks like a placeholder search: they are in `pred` (query-constraints.ts).
  if (q === "" || (parsed.alternatives.length === 0 && parsed.excluded.length > 0)) {
    ranked = [];
    for (const id of live.order) {
      const doc = live.docs.get(id) as StoredDoc;
      if (!pred || pred(doc)) ranked.push({ id, level: 0, kw: 0, score: 1 });
    }
    if (req.sort && req.sort.length > 0) ranked.sort(sortComparator(req.sort, live.docs));
    return sortedRanking(ranked, req, wantIds, new Map(), 0, 0);
  }
  if (ratio > 0) {
    if (!embedded) throw new Error("a hybrid ranking needs the query vector");
    const { vec, ms } = embedded;
    const strategy = req.matchingStrategy ?? "last";
    const { matches, marks } = keywordCandidates(live, q, pred, strategy, req.attributesToSearchOn, parsed);
    const pins = pinnedIds(live, q, pred, req.attributesToSearchOn);
    if (pins.length === 0) {
      return { ...hybridRanking(live, req, pred, ratio, vec, matches, wantIds), marks, embeddingTimeMs: ms, ratio };
    }
    // The ranking without the pins: enough of its head to fill the page after them, and every id (the total).
    const rest = hybridRanking(live, { ...req, offset: 0, limit: req.offset + req.limit + pins.length }, pred, ratio, vec, matches, true);
    const all = rest.ids ?? [];
    const pinSet = new Set(pins);
    const among = all.reduce((n, id) => n + (pinSet.has(id) ? 1 : 0), 0);
    const ranking = { total: rest.total, pinsAmong: among, ids: wantIds ? () => all : null };
    return { ...withPins(pins, rest.page, ranking, req), marks, embeddingTimeMs: ms, ratio };
  }
  const { matches, marks } = keywordCandidates(live, q, pred, req.matchingStrategy ?? "last", req.attributesToSearchOn, parsed);
  const pins = pinnedIds(live, q, pred, req.attributesToSearchOn);
  const sort = req.sort && req.sort.length > 0 ? req.sort : null;
  let sortDocs: ((i: number) => StoredDoc) | null = null;
  if (sort) {
    const docs = matches.ids().map((id) => live.docs.get(id) as StoredDoc);
    sortDocs = (i) => docs[i];
  }
  if (pins.length > 0) {
    const head = matches.top(req.offset + req.limit + pins.length, sortDocs, sort ? docComparator(sort) : null);
    // Counted by segment ordinal: a common citation's words match most of the corpus, and its ids are not needed.
    const ranking = { total: matches.count, pinsAmong: matches.countIds(pins), ids: wantIds ? () => matches.ids() : null };
    const pinned = withPins(pins, head.map((i) => matches.candidate(i)), ranking, req);
    return { ...pinned, marks, embeddingTimeMs: 0, ratio: 0 };
  }
  const top = matches.top(req.offset + req.limit, sortDocs, sort ? docComparator(sort) : null);
  return {
    total: matches.count,
    page: top.slice(req.offset).map((i) => matches.candidate(i)),
    ids: wantIds ? matches.ids() : null,
    marks,
    embeddingTimeMs: 0,
    ratio: 0,
  };
}

/**
 * Keyword candidates: every document matching the query under the matching strategy, with level and raw score,
 * plus the terms to highlight.
 */
export function keywordCandidates(
  live: LiveIndex,
  q: string,
  pred: Predicate | null,
  strategy: "all" | "last",
  attributesToSearchOn: readonly string[] | undefined,
  parsed: ParsedQuery = parseQuery(q),
): { matches: KeywordMatches; marks: MarkTerms } {
  const n = parsed.words.length;
  const marks: MarkTerms = new Map();
  const matches = new KeywordMatches(n);
  if (n === 0) return { matches, marks };
  let allowedMask = 0;
  if (attributesToSearchOn && attributesToSearchOn.length > 0) {
    for (const a of attributesToSearchOn) {
      const i = SEARCHABLE_ATTRIBUTES.indexOf(a);
      if (i >= 0) allowedMask |= 1 << i;
    }
    if (allowedMask === 0) return { matches, marks };
  }
  // No id is live in both segments (every delta id is tombstoned in main), so candidates need no merging.
  for (const segment of [live.main, live.delta]) {
    if (!segment || segment.size === 0) continue;
    const expansions = parsed.alternatives.map((alts) => {
      // `a OR b`: one word slot filled by either word (the union of their expansions, each term at its best penalty).
      // No typo expansion to a proper name (proper-names.ts): "robery" must not rank "Robert" with "robbery".
      const expand = (w: QueryWord) => wordExpansions(segment, w, live);
      const exps = alts.length === 1 ? expand(alts[0]) : unionExpansions(alts.map(expand));
      for (const w of alts) {
        // Stop-words and one-letter words match but are never marked (text/markable.ts).
        if (!marksQueryWord(w.text)) continue;
        for (const e of alts.length === 1 ? exps : expand(w)) {
          const term = segment.vocab[e.term];
          if (!isMarkableTerm(term)) continue;
          const markLen = e.kind === "prefix" ? w.text.length : null;
          const prev = marks.get(term);
          if (!marks.has(term) || (prev !== null && markLen === null)) marks.set(term, markLen);
        }
      }
      return exps;
    });
    const dead = segment === live.main && live.mainDead.size > 0 ? live.mainDead : null;
    let accept: MatchFilter | null = null;
    if (pred) {
      const docs = live.segmentDocs(segment);
      const verdicts = verdictsFor(pred, docs);
      accept = { verdicts, decide: (d) => (passes(verdicts, pred, docs, d) ? 1 : 2) };
    }
    const ids = segment.ids;
    const found = segment.match(expansions, parsed.required, strategy === "all" ? n : 1, allowedMask, accept);
    if (dead) {
      // Drop the replaced and deleted documents in place (the result is this query's until the next match() on the
      // segment).
      let kept = 0;
      for (let j = 0; j < found.count; j++) {
        const d = found.ords[j];
        if (dead.has(ids[d])) continue;
        found.ords[kept] = d;
        found.levels[kept] = found.levels[j];
        found.kws[kept] = found.kws[j];
        kept++;
      }
      found.count = kept;
    }
    matches.addPart(segment, found);
  }
  return { matches, marks };
}

/** The vocabulary terms a query word stands for in a segment, as ranking expands it (no typos to proper names). */
export function wordExpansions(segment: KeywordSegment, word: QueryWord, live: LiveIndex): Expansion[] {
  return withoutNameTypos(segment, segment.expand(word), live);
}

/** Per expansion list (cached per segment and word by KeywordSegment.expand): it without typos to proper names. */
const nameFiltered = new WeakMap<Expansion[], { names: ReadonlySet<string>; exps: Expansion[] }>();

function withoutNameTypos(segment: KeywordSegment, exps: Expansion[], live: LiveIndex): Expansion[] {
  // The names are read once per main segment (proper-names.ts), on the first query that has a typo expansion.
  if (!exps.some((e) => e.kind === "typo")) return exps;
  const names = properNames(live);
  if (names.size === 0) return exps;
  const hit = nameFiltered.get(exps);
  if (hit && hit.names === names) return hit.exps;
  const kept = exps.some((e) => e.kind === "typo" && names.has(segment.vocab[e.term]))
    ? exps.filter((e) => e.kind !== "typo" || !names.has(segment.vocab[e.term]))
    : exps;
  nameFiltered.set(exps, { names, exps: kept });
  return kept;
}

/** The expansions of several words as one slot's: each term once, at its best (highest) penalty. */
function unionExpansions(lists: Expansion[][]): Expansion[] {
  const best = new Map<number, Expansion>();
  for (const list of lists) {
    for (const e of list) {
      const prev = best.get(e.term);
      if (!prev || e.penalty > prev.penalty) best.set(e.term, e);
    }
  }
  return [...best.values()];
}

/**
 * The judgments whose case number or neutral citation equals one typed in the query (citations.ts), passing the
 * filter: ranked before everything else. Not when the request searches only attributes that
 * hold no citation (autocomplete searches case_number, so it pins too).
 */
export function pinnedIds(live: LiveIndex, q: string, pred: Predicate | null, attributesToSearchOn: readonly string[] | undefined): string[] {
  if (live.citations.size === 0) return [];
  if (attributesToSearchOn?.length && !attributesToSearchOn.some((a) => (CITATION_FIELDS as readonly string[]).includes(a))) {
    return [];
  }
  const keys = queryCitationKeys(q);
  if (keys.length === 0) return [];
  // Ordered by id, like the Meilisearch adapter's pins.
  return live.citations
    .lookup(keys)
    .filter((id) => {
      const doc = live.docs.get(id);
      return !!doc && (!pred || pred(doc));
    })
    .sort();
}
