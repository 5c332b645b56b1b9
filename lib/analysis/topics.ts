/**
 * Topic modelling of judgments: TF-IDF over the analysis fields (./document.ts), NMF (./nmf.ts),
 * topics with keywords, size, NPMI coherence, per-period weights and trend, and the judgments that show each topic
 * best. Pure and deterministic: the same documents, parameters and seed give the same result, byte for byte, whatever
 * order the documents come in (they are put in sample order, or id order without a sample). The route adds run_id and
 * computed_ms and stores the run.
 */
import { readableLabel } from "./labels";
import { analysisText, decisionDateOf, nameTerms, type AnalysisDocument } from "./document";
import { meanNpmi, postings } from "./coherence";
import { csrFromRows, nmf } from "./nmf";
import { relativeSlope, splitPeriods, trendOf, type Period, type Trend } from "./periods";
import { seededSample } from "./sample";
import { analysisTokens, countSurfaceForms, preferredSurface } from "./text";
import { buildTfidf } from "./tfidf";

export interface TopicParams {
  numTopics: number;
  numKeywords: number;
  timePeriods: number;
  seed: number;
  /** Seeded sample of this many documents (the aggregate's sampling); all documents when absent. */
  sampleSize?: number;
  /** Judgments listed per topic (default 5). */
  numSampleDocuments?: number;
  /** Cohort size to report when the caller passes an already sampled set (default: documents given). */
  corpusSize?: number;
}

export interface TopicKeyword {
  term: string;
  weight: number;
}

export interface Topic {
  id: number;
  label: string;
  keywords: TopicKeyword[];
  size: number;
  coherence: number;
  trend: Trend;
  slope: number;
  weights_by_period: { period: string; weight: number }[];
  sample_documents: { id: string; case_number: string | null; title: string | null; weight: number }[];
}

export interface TopicRun {
  topics: Topic[];
  periods: Period[];
  params: {
    sample_size: number | null;
    num_topics: number;
    num_keywords: number;
    time_periods: number;
    seed: number;
  };
  corpus_size: number;
  /** How the model was fitted (for explaining a run; not part of the shape, safe to drop). */
  model: {
    documents: number;
    vocabulary_size: number;
    iterations: number;
    converged: boolean;
    reconstruction_error: number;
  };
}

/** Numbers in results are rounded so JSON stays short and readable (6 decimals is far below any meaningful change). */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

const byId = (a: AnalysisDocument, b: AnalysisDocument) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function analyzeTopics(docs: readonly AnalysisDocument[], params: TopicParams): TopicRun {
  const { numTopics, numKeywords, timePeriods, seed } = params;
  // The route validates the ranges; this only keeps nonsense from producing NaN or empty loops.
  for (const [name, v] of Object.entries({ numTopics, numKeywords, timePeriods })) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  }
  const selected =
    params.sampleSize === undefined ? [...docs].sort(byId) : seededSample(docs, params.sampleSize, seed);
  const texts = selected.map((d) => analysisText(d));
  const matrix = buildTfidf(texts.map((t, i) => analysisTokens(t, undefined, nameTerms(selected[i]))));
  const n = selected.length;
  const m = matrix.terms.length;
  const rank = Math.max(1, Math.min(numTopics, n, m));
  const { periods, index: periodOf } = splitPeriods(selected.map(decisionDateOf), timePeriods);
  const baseRun = {
    params: {
      sample_size: params.sampleSize ?? null,
      num_topics: numTopics,
      num_keywords: numKeywords,
      time_periods: timePeriods,
      seed,
    },
    corpus_size: params.corpusSize ?? docs.length,
  };
  if (n === 0 || m === 0) {
    return {
      topics: [],
      periods,
      ...baseRun,
      model: { documents: n, vocabulary_size: m, iterations: 0, converged: true, reconstruction_error: 0 },
    };
  }

  const V = csrFromRows(matrix.rows, m);
  const fit = nmf(V, { rank, seed });
  const { W, H } = fit;

  // Scale each topic so its term weights sum to 1 (W absorbs the factor: WH is unchanged), then read each
  // document's topic mix as shares of its W row.
  for (let t = 0; t < rank; t++) {
    let s = 0;
    for (let j = 0; j < m; j++) s += H[t * m + j];
    if (s <= 0) continue;
    for (let j = 0; j < m; j++) H[t * m + j] /= s;
    for (let i = 0; i < n; i++) W[i * rank + t] *= s;
  }
  const share = new Float64Array(n * rank);
  const dominant = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < rank; t++) s += W[i * rank + t];
    if (s <= 0) continue;
    let best = 0;
    for (let t = 0; t < rank; t++) {
      share[i * rank + t] = W[i * rank + t] / s;
      if (share[i * rank + t] > share[i * rank + best]) best = t;
    }
    dominant[i] = best;
  }

  // Per period, the documents that have a topic mix (a document none of whose terms survived has none, and must not
  // dilute the period's mean weights).
  const withMix = periods.map(() => 0);
  for (let i = 0; i < n; i++) if (periodOf[i] >= 0 && dominant[i] >= 0) withMix[periodOf[i]]++;

  const post = postings(matrix.rows, m);
  const perTopic = Array.from({ length: rank }, (_, t) => {
    const cols = Array.from({ length: m }, (_, j) => j)
      .filter((j) => H[t * m + j] > 0)
      .sort((a, b) => H[t * m + b] - H[t * m + a] || (matrix.terms[a] < matrix.terms[b] ? -1 : 1))
      .slice(0, numKeywords);
    let size = 0;
    let mass = 0;
    for (let i = 0; i < n; i++) {
      if (dominant[i] === t) size++;
      mass += share[i * rank + t];
    }
    return { t, cols, size, mass };
  });
  // Largest topics first; ties by mass, then by the factor's index (all deterministic).
  perTopic.sort((a, b) => b.size - a.size || b.mass - a.mass || a.t - b.t);

  const keywordTerms = new Set(perTopic.flatMap((p) => p.cols.map((j) => matrix.terms[j])));
  const surface = new Map<string, Map<string, number>>();
  for (const text of texts) countSurfaceForms(text, keywordTerms, surface);

  const topics: Topic[] = perTopic.map((p, id) => {
    const keywords = p.cols.map((j) => ({
      term: preferredSurface(matrix.terms[j], surface),
      weight: round(H[p.t * m + j]),
    }));
    const sums = new Float64Array(periods.length);
    for (let i = 0; i < n; i++) if (periodOf[i] >= 0) sums[periodOf[i]] += share[i * rank + p.t];
    const weights = periods.map((_, k) => (withMix[k] > 0 ? sums[k] / withMix[k] : 0));
    const slope = relativeSlope(weights, withMix);
    const examples = Array.from({ length: n }, (_, i) => i)
      .filter((i) => share[i * rank + p.t] > 0)
      .sort((a, b) => share[b * rank + p.t] - share[a * rank + p.t] || byId(selected[a], selected[b]))
      .slice(0, params.numSampleDocuments ?? 5);
    return {
      id,
      label: readableLabel(keywords.map((k) => k.term)),
      keywords,
      size: p.size,
      coherence: round(meanNpmi(p.cols, post, n)),
      trend: trendOf(slope),
      slope: round(slope),
      weights_by_period: periods.map((per, k) => ({ period: per.period, weight: round(weights[k]) })),
      sample_documents: examples.map((i) => ({
        id: selected[i].id,
        case_number: selected[i].case_number ?? null,
        title: selected[i].title ?? null,
        weight: round(share[i * rank + p.t]),
      })),
    };
  });

  return {
    topics,
    periods,
    ...baseRun,
    model: {
      documents: n,
      vocabulary_size: m,
      iterations: fit.iterations,
      converged: fit.converged,
      reconstruction_error: round(fit.error),
    },
  };
}
