/**
 * Precedent finder: POST /api/precedents/find.
 *
 * Retrieval is hybrid over judgments through the SearchEngine port (the engine of search): the keyword part runs on
 * the user's query, the vector part on the query with the source judgment's summary, keywords and topics prepended
 * when `document_id` is given (the source itself is excluded). Without a model (mode "rules") the candidates keep the
 * engine's order and similarity, and each gets matching factors: the cited legislation, keywords and topics it shares
 * with the source (or that the query names), the same convicted offences and the same appeal outcome. With a model
 * (mode "llm", unless include_analysis is false) every candidate is re-scored by one generateObject call: relevance
 * 0-1, factors and an explanation; score = 0.4·similarity + 0.6·relevance.
 */
import { generateObject, type LanguageModel } from "ai";
import { z } from "zod";
import { foldText } from "@/lib/analysis/reasoning-patterns";
import { config } from "@/lib/config";
import { fromDatabaseError } from "@/lib/errors";
import { llmCallSettings, tokensUsed, type AssistantMode } from "@/lib/llm/call";
import { getSearch } from "@/lib/search/engine";
import type { PrecedentsRequest } from "@/lib/schema/requests/assistant-tools";
import { isJsonObject } from "@/lib/supabase/json";
import type { Identity } from "../identity";
import { mapSearchErrors } from "../search";
import { filterNodeOf } from "./retrieval";
import type { ToolDeps } from "./document-helpers";
import { modelCallError, modelName, NO_MODEL_MODE, pickModel, readJudgment, toJudgmentForTools, type JudgmentForTools } from "./tools-common";

export interface Precedent {
  id: string;
  case_number: string | null;
  title: string | null;
  decision_date: string | null;
  court_name: string | null;
  /** The engine's hybrid relevance in [0,1] (comparable within one answer). */
  similarity: number;
  /** Model mode: the model's relevance 0-1. */
  relevance?: number;
  score: number;
  matching_factors?: string[];
  explanation?: string;
}

export interface PrecedentsResponse {
  results: Precedent[];
  /** The text the vector part searched with (source summary etc. + query). */
  query_used: string;
  mode: AssistantMode;
  model: string | null;
  tokens_used: number;
  retrieval_time_ms: number;
}

/** Characters of the source judgment's summary put before the query (the embedder reads about 2,000). */
const SOURCE_SUMMARY_CHARS = 1200;
const QUERY_USED_MAX_CHARS = 2000;
/** Factors listed per candidate. */
const MAX_FACTORS = 8;
export const SIMILARITY_WEIGHT = 0.4;
export const RELEVANCE_WEIGHT = 0.6;

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The text the vector part embeds: the source's summary, keywords and topics, then the query. */
export function precedentQueryText(query: string, source: JudgmentForTools | null): string {
  if (!source) return query.slice(0, QUERY_USED_MAX_CHARS);
  const terms = [...new Set([...source.keywords, ...source.legal_topics, ...source.base_keywords])].join(", ");
  const head = [source.summary?.slice(0, SOURCE_SUMMARY_CHARS), terms].filter(Boolean).join(". ");
  return `${head}\n${query}`.slice(0, QUERY_USED_MAX_CHARS);
}

const norm = (s: string) => foldText(s).replace(/\s+/g, " ").trim();

/** Values both lists hold (folded comparison), as the candidate writes them. */
function shared(candidate: readonly string[], source: readonly string[]): string[] {
  const want = new Set(source.map(norm));
  return [...new Set(candidate.filter((v) => want.has(norm(v))))];
}

/** Candidate values the query text names (folded substring; values of 4+ characters). */
function named(candidate: readonly string[], queryFolded: string): string[] {
  return [...new Set(candidate.filter((v) => norm(v).length >= 4 && queryFolded.includes(norm(v))))];
}

/**
 * Why a candidate matches, from the data both sides hold: "legislation: …", "keyword: …", "offence: …", "outcome: …".
 * With a source judgment the factors are what the two share; without one, what the query names.
 */
export function matchingFactors(candidate: JudgmentForTools, source: JudgmentForTools | null, query: string): string[] {
  const q = norm(query);
  const pick = (c: readonly string[], s: readonly string[]) => (source ? shared(c, s) : named(c, q));
  const out: string[] = [];
  for (const v of pick(candidate.cited_legislation, source?.cited_legislation ?? [])) out.push(`legislation: ${v}`);
  const kw = (j: JudgmentForTools) => [...j.keywords, ...j.legal_topics, ...j.base_keywords];
  for (const v of pick(kw(candidate), source ? kw(source) : [])) out.push(`keyword: ${v}`);
  for (const v of pick(candidate.base_convict_offences, source?.base_convict_offences ?? [])) out.push(`offence: ${v}`);
  if (source) {
    for (const v of shared(candidate.base_appeal_outcome, source.base_appeal_outcome)) out.push(`outcome: ${v}`);
    if (candidate.outcome && source.outcome && norm(candidate.outcome) === norm(source.outcome)) out.push(`outcome: ${candidate.outcome}`);
  }
  return [...new Set(out)].slice(0, MAX_FACTORS);
}

/** Base fields of the candidates, read as the caller (no full text: judgments_by_ids). */
async function candidateRows(ids: string[], identity: Identity): Promise<Map<string, JudgmentForTools>> {
  if (ids.length === 0) return new Map();
  const { data, error } = await identity.db.rpc("judgments_by_ids", { p_ids: ids });
  if (error) throw fromDatabaseError(error);
  return new Map(data.filter(isJsonObject).map((d) => [String(d.id), toJudgmentForTools(d)]));
}

export const rescoreOutput = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      relevance: z.number().min(0).max(1),
      factors: z.array(z.string()).max(10),
      explanation: z.string(),
    }),
  ),
});

const RESCORE_SYSTEM = [
  "You judge which earlier judgments are precedents for a lawyer's question (criminal appeals, Poland and England & Wales).",
  "For every candidate give: relevance from 0 (unrelated) to 1 (directly on point), the factors that make it relevant",
  "(same provision, same offence, same legal question, same outcome), and a one-sentence explanation.",
  "Judge only from the text given. Answer for every candidate id.",
].join("\n");

/** One model call scoring every candidate (exported for the mock-model tests). */
export async function rescore(query: string, source: JudgmentForTools | null, candidates: Precedent[], rows: Map<string, JudgmentForTools>, model: LanguageModel, deps: ToolDeps) {
  const list = candidates
    .map((c) => {
      const r = rows.get(c.id);
      return `id: ${c.id}\ncase: ${c.case_number ?? ""} (${c.court_name ?? ""}, ${c.decision_date ?? ""})\n${(r?.summary ?? c.title ?? "").slice(0, 600)}`;
    })
    .join("\n---\n");
  const src = source ? `The lawyer starts from judgment ${source.case_number ?? source.id}: ${(source.summary ?? "").slice(0, 1200)}\n\n` : "";
  try {
    const r = await generateObject({
      model,
      schema: rescoreOutput,
      schemaName: "precedent_scores",
      system: RESCORE_SYSTEM,
      prompt: `${src}Question: ${query}\n\nCandidates:\n${list}`,
      ...llmCallSettings({ signal: deps.signal, functionId: "precedents" }),
    });
    return { scores: new Map(r.object.results.map((x) => [x.id.toLowerCase(), x])), tokens: tokensUsed(r.usage) };
  } catch (e) {
    throw modelCallError(e, "ASSISTANT_OUTPUT_INVALID");
  }
}

/**
 * Model scores applied: score = 0.4·similarity + 0.6·relevance (a candidate the model skipped has relevance 0), the
 * model's factors first, best score first, `limit` kept.
 */
export function applyScores(results: Precedent[], scores: Map<string, z.infer<typeof rescoreOutput>["results"][number]>, limit: number): Precedent[] {
  return results
    .map((p) => {
      const s = scores.get(p.id);
      if (!s) return { ...p, relevance: 0, score: round4(SIMILARITY_WEIGHT * p.similarity) };
      return {
        ...p,
        relevance: round4(s.relevance),
        score: round4(SIMILARITY_WEIGHT * p.similarity + RELEVANCE_WEIGHT * s.relevance),
        matching_factors: [...new Set([...s.factors, ...(p.matching_factors ?? [])])].slice(0, MAX_FACTORS),
        explanation: s.explanation,
      };
    })
    .sort((a, b) => b.score - a.score || b.similarity - a.similarity)
    .slice(0, limit);
}

export async function findPrecedents(body: PrecedentsRequest, identity: Identity, deps: ToolDeps = {}): Promise<PrecedentsResponse> {
  // The filter object was checked by the request schema (FILTER_INVALID, COLLECTION_IDS_NOT_ALLOWED); keys the index
  // cannot filter on are refused here, before any read.
  const filter = filterNodeOf(body.filters);
  const source = body.document_id ? await readJudgment(body.document_id, identity) : null;
  const model = body.include_analysis === false ? null : pickModel(deps.model);
  const queryUsed = precedentQueryText(body.query, source);
  const c = config();
  const want = model ? Math.min(100, body.limit * c.PRECEDENTS_CANDIDATE_FACTOR) : body.limit;
  const t0 = performance.now();
  const { engine, embedder } = getSearch();
  const r = await mapSearchErrors(async () => {
    const ratio = c.PRECEDENTS_SEMANTIC_RATIO;
    const vector = ratio > 0 ? await embedder.embedQuery(queryUsed) : undefined;
    return engine.searchDocuments({
      q: body.query,
      vector,
      semanticRatio: ratio,
      filter,
      // One more than asked, so excluding the source still leaves `want`.
      limit: want + (source ? 1 : 0),
      offset: 0,
      attributesToRetrieve: ["id", "case_number", "title", "decision_date", "court_name"],
    });
  });
  const hits = r.hits.filter((h) => h.document.id !== source?.id).slice(0, want);
  const rows = await candidateRows(
    hits.map((h) => h.document.id),
    identity,
  );
  const retrievalMs = performance.now() - t0;
  const strOf = (v: unknown) => (typeof v === "string" ? v : null);
  let results: Precedent[] = hits.map((h) => {
    const row = rows.get(h.document.id);
    const similarity = round4(Math.max(0, Math.min(1, h.score)));
    return {
      id: h.document.id,
      case_number: strOf(h.document.case_number),
      title: strOf(h.document.title),
      decision_date: strOf(h.document.decision_date),
      court_name: strOf(h.document.court_name),
      similarity,
      score: similarity,
      matching_factors: row ? matchingFactors(row, source, body.query) : [],
    };
  });
  let tokens = 0;
  if (model && results.length > 0) {
    const { scores, tokens: used } = await rescore(body.query, source, results, rows, model, deps);
    tokens = used;
    results = applyScores(results, scores, body.limit);
  }
  return {
    results,
    query_used: queryUsed,
    mode: model ? "llm" : NO_MODEL_MODE.precedents,
    model: model ? modelName(model) : null,
    tokens_used: tokens,
    retrieval_time_ms: Math.round(retrievalMs),
  };
}
