/**
 * Retrieval for the assistants: the passages an answer may use, found through the SearchEngine port — the
 * same engine as search — and restricted by a BaseSchemaFilters object through the one filter pipeline (the server
 * parser, then the structured → filter-AST mapping document search uses; chunk search applies keys its table lacks on
 * the parent judgment). Hybrid: candidates are the passages nearest the question's vector plus the passages of the
 * keyword search's best judgments; three rankings (vector similarity, the judgment's keyword rank, BM25 of the passage
 * itself) are fused by reciprocal rank.
 */
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { getSearchEngine } from "@/lib/search/engine";
import { andAll, structuredFilterNode, UnsupportedFilterKeyError, type FilterNode } from "@/lib/search/filter";
import type { BaseSchemaFilters } from "@/lib/schema/filters";
import { mapSearchErrors } from "../search";
import { words } from "@/lib/search/text/tokenize";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { QUESTION_WORDS } from "./question-words";

export type Jurisdiction = "PL" | "UK";

export interface RetrievalRequest {
  query: string;
  /** A BaseSchemaFilters object, checked by its request schema (lib/schema/filters.ts filtersField). */
  filters?: BaseSchemaFilters;
  /** The filter AST already built from `filters` and `jurisdiction` (retrievalFilter): used instead of them. */
  filter?: FilterNode;
  jurisdiction?: Jurisdiction | Jurisdiction[];
  /** Passages to return (default 8) … */
  maxPassages?: number;
  /** … from at most this many judgments (default 5). */
  maxJudgments?: number;
  /** Search only these judgments (a follow-up about the previous answer's judgment). */
  judgmentIds?: string[];
  /** Keep only passages of judgments of this court (court_name, exactly): the index cannot filter on it. */
  court?: string;
}

/** One retrieved passage, numbered from 1 in answer order: the [n] citations of an answer point here. */
export interface Source {
  id: string;
  case_number: string | null;
  title: string | null;
  relevance: number;
  excerpt: string;
  /** 0-based passage position within the judgment. */
  position: number;
}

export interface Retrieval {
  sources: Source[];
  retrieval_time_ms: number;
}

/** Reciprocal-rank fusion constant (the usual 60: ranks far down either list count little). */
const RRF_K = 60;
/** Candidates fetched from each ranking before fusion. */
const CANDIDATE_PASSAGES = 40;
const CANDIDATE_JUDGMENTS = 20;

/** The filter AST of a (schema-checked) filter object; a key the search index cannot filter on is 422 FILTER_INVALID naming it. */
export function filterNodeOf(filters: BaseSchemaFilters | undefined): FilterNode | undefined {
  if (!filters) return undefined;
  try {
    return structuredFilterNode(filters);
  } catch (e) {
    if (e instanceof UnsupportedFilterKeyError) throw new ApiError("FILTER_INVALID", e.message, { field: e.key });
    throw e;
  }
}

/** The filter AST of a request: BaseSchemaFilters (checked by its request schema) AND the jurisdiction. */
export function retrievalFilter(filters: BaseSchemaFilters | undefined, jurisdiction?: Jurisdiction | Jurisdiction[]): FilterNode | undefined {
  const fromFilters = filterNodeOf(filters);
  const j = jurisdiction === undefined ? undefined : Array.isArray(jurisdiction) ? jurisdiction : [jurisdiction];
  const byJurisdiction: FilterNode | undefined = j?.length ? { type: "in", attribute: "jurisdiction", values: j, negated: false } : undefined;
  return andAll([fromFilters, byJurisdiction]);
}

const terms = (s: string) => words(s).filter((w) => !STOPWORDS.has(w) && w.length > 1);

/**
 * The keyword query of a question: its content words (stop words and question words out), so the keyword ranking
 * matches judgments on what is asked about; "last" matching drops trailing words when all of them match nothing.
 */
export function keywordQuery(question: string): string {
  return [...new Set(terms(question).filter((w) => !QUESTION_WORDS.has(w)))].slice(0, 32).join(" ");
}

/** BM25 of each text against the query's words (the texts being the collection), with the search's tokenizer. */
export function lexicalScores(query: string, texts: string[]): number[] {
  const q = [...new Set(terms(query))];
  const docs = texts.map((t) => {
    const tf = new Map<string, number>();
    const ws = terms(t);
    for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tf, len: ws.length };
  });
  const n = docs.length;
  const avg = docs.reduce((a, d) => a + d.len, 0) / (n || 1) || 1;
  return docs.map((d) => {
    let score = 0;
    for (const t of q) {
      const f = d.tf.get(t) ?? 0;
      if (!f) continue;
      const df = docs.filter((x) => x.tf.has(t)).length;
      score += (Math.log(1 + (n - df + 0.5) / (df + 0.5)) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avg));
    }
    return score;
  });
}

const normalise = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The top passages for a question: fused ranking, at most `maxPassages` passages from at most `maxJudgments`
 * judgments, with duplicates (the same passage, or the same text under two judgments) dropped.
 */
export async function retrievePassages(req: RetrievalRequest): Promise<Retrieval> {
  const t0 = performance.now();
  const maxPassages = req.maxPassages ?? 8;
  const maxJudgments = req.maxJudgments ?? 5;
  const filter = req.filter ?? retrievalFilter(req.filters, req.jurisdiction);
  const engine = getSearchEngine();
  const focus: FilterNode | undefined = req.judgmentIds?.length ? { type: "in", attribute: "judgment_id", values: req.judgmentIds, negated: false } : undefined;
  const [chunks, docs] = await mapSearchErrors(() =>
    Promise.all([
      engine.searchChunks({ query: req.query, limit: CANDIDATE_PASSAGES, filter: andAll([filter, focus]) }),
      // Held to given judgments, there is no judgment to rank: the passages' own rankings decide.
      focus
        ? Promise.resolve({ hits: [] as Array<{ document: Record<string, unknown> }> })
        : engine.searchDocuments({ q: keywordQuery(req.query), matchingStrategy: "last", filter, limit: CANDIDATE_JUDGMENTS, offset: 0, semanticRatio: 0, attributesToRetrieve: ["id"] }),
    ]),
  );
  const keywordRank = new Map<string, number>();
  docs.hits.forEach((h, i) => {
    const id = String(h.document.id);
    if (!keywordRank.has(id)) keywordRank.set(id, i);
  });
  // The passages of the keyword search's best judgments (already filtered), which the vector ranking alone may miss.
  const best = [...keywordRank.keys()].slice(0, maxJudgments);
  const ofBest = best.length
    ? await engine
        .searchChunks({ query: req.query, limit: CANDIDATE_PASSAGES, filter: { type: "in", attribute: "judgment_id", values: best, negated: false } })
        .catch(() => ({ hits: [] as typeof chunks.hits }))
    : { hits: [] as typeof chunks.hits };
  const candidates = new Map<string, (typeof chunks.hits)[number]>();
  for (const h of [...chunks.hits, ...ofBest.hits]) {
    const key = `${h.judgmentId}:${h.position}`;
    const had = candidates.get(key);
    if (!had || had.similarity < h.similarity) candidates.set(key, h);
  }
  const list = [...candidates.values()];
  // Three rankings fused by reciprocal rank: vector similarity, the judgment's keyword rank, the passage's own words.
  const vectorRank = new Map([...list].sort((a, b) => b.similarity - a.similarity).map((h, i) => [h, i]));
  const lexical = lexicalScores(req.query, list.map((h) => h.text));
  const lexicalRank = new Map(
    list
      .map((h, i) => ({ h, s: lexical[i] }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .map((x, i) => [x.h, i]),
  );
  const rrf = (r: number | undefined) => (r === undefined ? 0 : 1 / (RRF_K + r));
  const fused = list
    .map((h) => ({ hit: h, score: rrf(vectorRank.get(h)) + rrf(keywordRank.get(h.judgmentId)) + rrf(lexicalRank.get(h)) }))
    .sort((a, b) => b.score - a.score);

  // The court is not an index filter: candidates of other courts are dropped here, by the judgments' stored court_name.
  let ofCourt: Set<string> | null = null;
  if (req.court) {
    const ids = [...new Set(fused.map((f) => f.hit.judgmentId))];
    const docsOfCourt = ids.length ? await mapSearchErrors(() => engine.getDocuments(ids, ["id", "court_name"])) : [];
    ofCourt = new Set(docsOfCourt.filter((d) => d.court_name === req.court).map((d) => String(d.id)));
  }
  const judgments = new Set<string>();
  const seen = new Set<string>();
  const picked: typeof fused = [];
  for (const f of fused) {
    if (ofCourt && !ofCourt.has(f.hit.judgmentId)) continue;
    if (picked.length >= maxPassages) break;
    const { judgmentId, position, text } = f.hit;
    if (!judgments.has(judgmentId) && judgments.size >= maxJudgments) continue;
    const key = normalise(text);
    if (seen.has(`${judgmentId}:${position}`) || seen.has(key) || key === "") continue;
    seen.add(`${judgmentId}:${position}`);
    seen.add(key);
    judgments.add(judgmentId);
    picked.push(f);
  }
  const meta = new Map(
    (await mapSearchErrors(() => engine.getDocuments([...judgments], ["id", "title", "case_number"]))).map((d) => [String(d.id), d]),
  );
  const top = picked[0]?.score ?? 1;
  const sources: Source[] = picked.map((f) => {
    const d = meta.get(f.hit.judgmentId);
    return {
      id: f.hit.judgmentId,
      case_number: typeof d?.case_number === "string" ? d.case_number : null,
      title: typeof d?.title === "string" ? d.title : null,
      // Relative to the best passage of this answer (1 = best): fused scores have no absolute scale.
      relevance: Number((f.score / top).toFixed(4)),
      excerpt: f.hit.text.slice(0, config().CHAT_EXCERPT_MAX_CHARS),
      position: f.hit.position,
    };
  });
  return { sources, retrieval_time_ms: Math.round(performance.now() - t0) };
}
