/**
 * Topic modelling runs: POST /api/topic-modeling/analyze, GET /api/topic-modeling/runs and
 * /runs/{run_id}. The sample is drawn in SQL (topic_model_sample: the aggregate's seeded md5 order over the cohort)
 * with the caller's client, modelled by lib/analysis/topics.ts, and stored by the server for the caller
 * (store_search_topics_run, service role: callers cannot store runs themselves; RLS: owners read their own). Only an
 * admin's run (and the default run) may become the public topics index (P-83). Everything but `run_id` (a fresh UUID) and `computed_ms` (a measurement) is a pure function
 * of the request and the cohort, so the same request and seed give the same run, byte for byte (P-40).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { analyzeTopics, type Topic, type TopicRun } from "@/lib/analysis/topics";
import type { AnalysisDocument } from "@/lib/analysis/document";
import type { Period } from "@/lib/analysis/periods";
import { AnalyzeTopicsSchema, type AnalyzeTopicsRequest } from "@/lib/schema/requests/topics";
import type { BaseSchemaFilters } from "@/lib/schema/filters";

/** The params a run echoes: the five, plus the cohort it was drawn from. */
export interface TopicRunParams {
  sample_size: number;
  num_topics: number;
  num_keywords: number;
  time_periods: number;
  seed: number;
  jurisdiction: ("PL" | "UK")[] | null;
  filters: BaseSchemaFilters | null;
}

/** The body of POST /api/topic-modeling/analyze and GET /runs/{run_id} (plus `created_at`). */
export interface TopicRunResponse {
  run_id: string;
  topics: Topic[];
  periods: Period[];
  params: TopicRunParams;
  /** Judgments in the cohort the sample was drawn from. */
  corpus_size: number;
  computed_ms: number;
  /** How the model was fitted (documents, vocabulary, iterations, convergence): explains the run. */
  model: TopicRun["model"];
  created_at?: string;
}

/** GET /api/topic-modeling/runs: the caller's runs, newest first, without their topics. */
export interface TopicRunSummary {
  run_id: string;
  params: TopicRunParams;
  topic_count: number;
  document_count: number;
  computed_ms: number;
  created_at: string;
}
export interface TopicRunPage {
  runs: TopicRunSummary[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

const SampleResult = z.object({
  corpus_size: z.coerce.number(),
  rows: z.array(z.object({ id: z.string() }).passthrough()),
});

/** The stored result: everything of the response but run_id and computed_ms (columns of their own). */
export type StoredResult = Omit<TopicRunResponse, "run_id" | "computed_ms" | "created_at">;

const runFailed = () => new ApiError("TOPIC_RUN_FAILED");

/** The run's params, normalised: jurisdictions sorted and deduplicated, an empty filter object is no filter. */
function runParams(req: AnalyzeTopicsRequest, filters: BaseSchemaFilters): TopicRunParams {
  const jurisdiction = req.jurisdiction ? [...new Set(req.jurisdiction)].sort() : null;
  return {
    sample_size: req.sample_size,
    num_topics: req.num_topics,
    num_keywords: req.num_keywords,
    time_periods: req.time_periods,
    seed: req.seed,
    jurisdiction,
    filters: Object.keys(filters).length > 0 ? filters : null,
  };
}

/** What topic_model_sample answers: the cohort size and the sampled rows (analysis columns). */
export type TopicSample = z.infer<typeof SampleResult>;

/** Parse topic_model_sample's jsonb (also used by bench/analytics.ts, which calls the function over pg). */
export function parseTopicSample(data: unknown): TopicSample {
  const sample = SampleResult.safeParse(data);
  if (!sample.success) throw runFailed();
  return sample.data;
}

/** The run params of a request (its filter object already checked by the request schema: FILTER_INVALID, D-10). */
export function topicRunParams(req: AnalyzeTopicsRequest): TopicRunParams {
  return runParams(req, req.filters);
}

/** Model a drawn sample: pure and deterministic (the same sample and params, the same result, byte for byte). */
export function modelTopicSample(sample: TopicSample, params: TopicRunParams): StoredResult {
  const docs = sample.rows as unknown as AnalysisDocument[];
  // sampleSize = every row fetched: analyzeTopics puts them in the seeded order the SQL drew them in (sample.ts), so
  // the run equals the in-memory run over the whole cohort with this sample size.
  const run = analyzeTopics(docs, {
    numTopics: params.num_topics,
    numKeywords: params.num_keywords,
    timePeriods: params.time_periods,
    seed: params.seed,
    sampleSize: docs.length,
    corpusSize: sample.corpus_size,
    numSampleDocuments: config().TOPIC_SAMPLE_DOCUMENTS,
  });
  return { topics: run.topics, periods: run.periods, params, corpus_size: run.corpus_size, model: run.model };
}

/** Draw the sample (SQL, the caller's RLS) and model it. */
export async function computeTopicRun(db: DbClient, req: AnalyzeTopicsRequest): Promise<StoredResult> {
  const params = topicRunParams(req);
  const { data, error } = await db.rpc("topic_model_sample", {
    p_filters: params.filters ? jsonArg(params.filters) : undefined,
    p_jurisdictions: params.jurisdiction ?? undefined,
    p_sample_size: params.sample_size,
    p_seed: params.seed,
  });
  if (error) throw fromDatabaseError(error, "TOPIC_RUN_FAILED");
  return modelTopicSample(parseTopicSample(data), params);
}

/** Whom a run is stored for, from the verified identity; `publicIndex`: it may become the public topics index. */
export interface RunOwner {
  userId: string;
  publicIndex: boolean;
}

/**
 * POST /api/topic-modeling/analyze: compute with the caller's client, store for the caller with the service client (the
 * only writer of runs), answer. `onStored` runs after the row is written and is awaited (it must not throw: the run is
 * stored whatever it does).
 */
export async function analyzeTopicRun(
  db: DbClient,
  serviceDb: DbClient,
  owner: RunOwner,
  req: AnalyzeTopicsRequest,
  onStored?: () => Promise<void>,
): Promise<TopicRunResponse> {
  const t0 = performance.now();
  const result = await computeTopicRun(db, req);
  const computed_ms = Math.round(performance.now() - t0);
  const run_id = randomUUID();
  const { error } = await serviceDb.rpc("store_search_topics_run", {
    p_run_id: run_id,
    p_user_id: owner.userId,
    p_params: jsonArg(result.params),
    p_result: jsonArg(result),
    p_computed_ms: computed_ms,
    p_public: owner.publicIndex,
  });
  if (error) throw fromDatabaseError(error, "TOPIC_RUN_FAILED");
  await onStored?.();
  return { run_id, topics: result.topics, periods: result.periods, params: result.params, corpus_size: result.corpus_size, computed_ms, model: result.model };
}

const SummaryRow = z.object({
  run_id: z.string(),
  params: z.record(z.string(), z.unknown()),
  topic_count: z.coerce.number(),
  document_count: z.coerce.number(),
  computed_ms: z.coerce.number(),
  created_at: z.string(),
  total_count: z.coerce.number(),
});

export async function listTopicRuns(db: DbClient, page: { limit: number; offset: number }): Promise<TopicRunPage> {
  const { data, error } = await db.rpc("list_search_topics_runs", { p_limit: page.limit, p_offset: page.offset });
  if (error) throw fromDatabaseError(error);
  const rows = z.array(SummaryRow).parse(data ?? []);
  const total = rows[0]?.total_count ?? 0;
  return {
    runs: rows.map(({ total_count: _total, params, ...r }) => ({ ...r, params: params as unknown as TopicRunParams })),
    total,
    limit: page.limit,
    offset: page.offset,
    has_more: page.offset + rows.length < total,
  };
}

const StoredRow = z.object({
  run_id: z.string(),
  result: z.record(z.string(), z.unknown()),
  computed_ms: z.coerce.number(),
  created_at: z.string(),
});

/** GET /api/topic-modeling/runs/{run_id}: the owner's run (another user's or an unknown id: the same 404, D-30). */
export async function getTopicRun(db: DbClient, runId: string): Promise<TopicRunResponse> {
  const { data, error } = await db.rpc("get_search_topics_run", { p_run_id: runId });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw new ApiError("TOPIC_RUN_NOT_FOUND");
  const row = StoredRow.parse(data);
  const r = row.result as unknown as StoredResult;
  return {
    run_id: row.run_id,
    topics: r.topics,
    periods: r.periods,
    params: r.params,
    corpus_size: r.corpus_size,
    computed_ms: row.computed_ms,
    model: r.model,
    created_at: row.created_at,
  };
}

/** The default run's request: the defaults (sample 500, 8 topics, 8 keywords, 6 periods), seed 42, no filter. */
export const defaultTopicRequest = (): AnalyzeTopicsRequest => AnalyzeTopicsSchema.parse({ seed: 42 });

/**
 * A fresh stack has no public run, so the topics index (autocomplete's topic_hits, trending) would be empty. When no
 * public run exists (researchers' own runs never count, P-83), compute the default run with the service client and store it attributed to no user
 * (store_default_search_topics_run, which stores nothing when a run appeared meanwhile). Returns the stored run's id,
 * or null when a run already existed.
 */
export async function ensureDefaultTopicRun(serviceDb: DbClient): Promise<string | null> {
  const exists = await serviceDb.rpc("search_topics_run_exists");
  if (exists.error) throw fromDatabaseError(exists.error);
  if (exists.data) return null;
  const t0 = performance.now();
  const result = await computeTopicRun(serviceDb, defaultTopicRequest());
  const run_id = randomUUID();
  const { data, error } = await serviceDb.rpc("store_default_search_topics_run", {
    p_run_id: run_id,
    p_params: jsonArg(result.params),
    p_result: jsonArg(result),
    p_computed_ms: Math.round(performance.now() - t0),
  });
  if (error) throw fromDatabaseError(error, "TOPIC_RUN_FAILED");
  return data ? run_id : null;
}
