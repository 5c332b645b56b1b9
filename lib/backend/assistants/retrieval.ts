/**
 * Retrieval for the assistants (issue 17): the passages an answer may use, found through the SearchEngine port — the
 * same engine as search — and restricted by a BaseSchemaFilters object through the one filter pipeline (the server
 * parser, then the structured → filter-AST mapping document search uses; chunk search applies keys its table lacks on
 * the parent judgment). Hybrid: the passage (vector) ranking and the keyword ranking of judgments are fused by
 * reciprocal rank, so a judgment that matches the words of the question lifts its passages.
 */
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { getSearchEngine } from "@/lib/search/engine";
import { andAll, structuredFilterNode, UnsupportedFilterKeyError, type FilterNode } from "@/lib/search/filter";
import { parseFilters, refuseCollectionIds } from "../extractions/filters";
import { mapSearchErrors } from "../search";

export type Jurisdiction = "PL" | "UK";

export interface RetrievalRequest {
  query: string;
  /** A BaseSchemaFilters object (validated here by the one parser). */
  filters?: unknown;
  jurisdiction?: Jurisdiction | Jurisdiction[];
  /** Passages to return (default 8) … */
  maxPassages?: number;
  /** … from at most this many judgments (default 5). */
  maxJudgments?: number;
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

/** The filter AST of a request: BaseSchemaFilters (validated; collection_ids refused) AND the jurisdiction. */
export function retrievalFilter(filters: unknown, jurisdiction?: Jurisdiction | Jurisdiction[]): FilterNode | undefined {
  let fromFilters: FilterNode | undefined;
  if (filters !== undefined && filters !== null) {
    refuseCollectionIds(filters);
    try {
      fromFilters = structuredFilterNode(parseFilters(filters));
    } catch (e) {
      if (e instanceof UnsupportedFilterKeyError) {
        throw new ApiError("FILTER_INVALID", e.message, { field: e.key });
      }
      throw e;
    }
  }
  const j = jurisdiction === undefined ? undefined : Array.isArray(jurisdiction) ? jurisdiction : [jurisdiction];
  const byJurisdiction: FilterNode | undefined = j?.length ? { type: "in", attribute: "jurisdiction", values: j, negated: false } : undefined;
  return andAll([fromFilters, byJurisdiction]);
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
  const filter = retrievalFilter(req.filters, req.jurisdiction);
  const engine = getSearchEngine();
  const [chunks, docs] = await mapSearchErrors(() =>
    Promise.all([
      engine.searchChunks({ query: req.query, limit: CANDIDATE_PASSAGES, filter }),
      engine.searchDocuments({ q: req.query, filter, limit: CANDIDATE_JUDGMENTS, offset: 0, semanticRatio: 0, attributesToRetrieve: ["id"] }),
    ]),
  );
  const keywordRank = new Map<string, number>();
  docs.hits.forEach((h, i) => {
    const id = String(h.document.id);
    if (!keywordRank.has(id)) keywordRank.set(id, i);
  });
  const fused = chunks.hits
    .map((h, i) => {
      const k = keywordRank.get(h.judgmentId);
      return { hit: h, score: 1 / (RRF_K + i) + (k === undefined ? 0 : 1 / (RRF_K + k)) };
    })
    .sort((a, b) => b.score - a.score);

  const judgments = new Set<string>();
  const seen = new Set<string>();
  const picked: typeof fused = [];
  for (const f of fused) {
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
