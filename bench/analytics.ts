/**
 * bench/analytics: the analysis core (topics, styles, lines) on the demo corpus, generated in memory by supabase/seed (no
 * database), printing one JSON object. Targets: topic run with sample 500 p50 ≤ 3 s, with sample 2,000
 * p50 ≤ 10 s, on the full corpus (12,307 judgments: the seeded sample is drawn from all of them).
 *
 * Each sample size runs in a child process of its own (so its peak RSS is its own, not the generator's): the parent
 * generates the corpus once, keeps only the fields analysis reads (full texts are dropped), writes them to a
 * temporary file and starts `bench/analytics.ts --child <sample>` per size. A child loads the file, runs one untimed
 * warm-up and then --runs timed runs (default 5) of analyzeTopics with the issue's defaults (8 topics, 8 keywords,
 * 6 periods, seed 42 + run index so each run draws another sample), and reports p50/max and its peak RSS.
 * Style scoring is timed too: scoreStyles over the full texts of the first 200 judgments (judge-profile sized); and
 * the discovery core: seeded k-means (8 clusters) over 500 judgments' 384-dimension local-hash vectors (the embedded
 * default embedder, vectors computed beforehand as the search engine stores them), TF-IDF labels and similarity
 * edges within clusters.
 *
 * Through the backend (--database URL): the route's compute path without HTTP. The database (migrated; seeded with the
 * demo corpus of --corpus judgments first when its judgments table is empty) draws the sample with
 * `topic_model_sample` (the aggregate's seeded md5 order, as POST /api/topic-modeling/analyze calls it), and the
 * backend's `modelTopicSample` models it. Each sample size runs in its own child (one warm-up, then --runs runs with
 * seeds 42, 43, ...); reported: p50/max of the whole run and of the SQL sampling alone, and the child's peak RSS.
 *
 * Usage: npx tsx bench/analytics.ts [--corpus 12307] [--runs 5] [--sizes 500,2000] [--database postgres://… [--backend-only]]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ANALYSIS_FIELDS, analysisText, NAME_FIELDS, nameTerms, type AnalysisDocument } from "../lib/analysis/document";
import { clusterLabels, clusterVectors, similarityEdges } from "../lib/analysis/kmeans";
import { seededSample } from "../lib/analysis/sample";
import { analysisTokens } from "../lib/analysis/text";
import { buildTfidf } from "../lib/analysis/tfidf";
import { localHashVector } from "../lib/search/embedders/local-hash";
import { scoreStyles } from "../lib/analysis/reasoning-patterns";
import { analyzeTopics } from "../lib/analysis/topics";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateJudgment } from "../supabase/seed/generate";
import { corpusIsEmpty, seedCorpus } from "../supabase/seed/corpus";
import { modelTopicSample, parseTopicSample, type TopicRunParams } from "../lib/backend/topics/runs";
import pg from "pg";

const arg = (name: string, fallback: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : fallback;
const runs = Math.max(1, Number(arg("runs", "5")) || 5);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return {
    n: s.length,
    p50_ms: Math.round(s[Math.floor((s.length - 1) / 2)]),
    max_ms: Math.round(s[s.length - 1]),
  };
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

function child(file: string, sample: number): void {
  const docs = JSON.parse(readFileSync(file, "utf8")) as AnalysisDocument[];
  const rssAfterLoad = process.memoryUsage().rss;
  const run = (seed: number) =>
    analyzeTopics(docs, { numTopics: 8, numKeywords: 8, timePeriods: 6, seed, sampleSize: sample });
  run(41);
  const ms: number[] = [];
  let last = run(41);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = run(42 + i);
    ms.push(performance.now() - t);
  }
  process.stdout.write(
    JSON.stringify({
      sample,
      corpus: docs.length,
      ...stats(ms),
      iterations: last.model.iterations,
      vocabulary: last.model.vocabulary_size,
      rss_after_load_mb: mb(rssAfterLoad),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

/** One sample size through the backend's compute path (child process, so its peak RSS is its own). */
async function backendChild(databaseUrl: string, sample: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const params = (seed: number): TopicRunParams => ({
    sample_size: sample,
    num_topics: 8,
    num_keywords: 8,
    time_periods: 6,
    seed,
    jurisdiction: null,
    filters: null,
  });
  const run = async (seed: number) => {
    const t0 = performance.now();
    const { rows } = await client.query<{ s: unknown }>("select public.topic_model_sample(null, null, $1, $2) as s", [sample, seed]);
    const sqlMs = performance.now() - t0;
    const result = modelTopicSample(parseTopicSample(rows[0].s), params(seed));
    return { ms: performance.now() - t0, sqlMs, result };
  };
  await run(41);
  const ms: number[] = [];
  const sqlMs: number[] = [];
  let last = await run(41);
  for (let i = 0; i < runs; i++) {
    last = await run(42 + i);
    ms.push(last.ms);
    sqlMs.push(last.sqlMs);
  }
  await client.end();
  process.stdout.write(
    JSON.stringify({
      sample,
      corpus: last.result.corpus_size,
      ...stats(ms),
      sql_sample: stats(sqlMs),
      iterations: last.result.model.iterations,
      vocabulary: last.result.model.vocabulary_size,
      labels: last.result.topics.map((t) => t.label),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

async function backendRuns(databaseUrl: string, corpus: number, sizes: number[]): Promise<Record<string, unknown>> {
  let seeded: { inserted: number; ms: number } | null = null;
  if (await corpusIsEmpty(databaseUrl)) seeded = await seedCorpus(databaseUrl, { size: corpus });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const judgments = Number((await client.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);
  await client.end();
  const results = sizes.map((sample) => {
    const r = spawnSync(process.execPath, [...process.execArgv, __filename, "--backend-child", String(sample), databaseUrl, "--runs", String(runs)], {
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`backend child for sample ${sample} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  });
  return { judgments, seeded, runs: results };
}

async function main(): Promise<void> {
  if (process.argv.includes("--backend-only")) {
    const database = arg("database", "");
    if (!database) throw new Error("--backend-only needs --database");
    const sizes = arg("sizes", "500,2000").split(",").map(Number);
    const backend = await backendRuns(database, Number(arg("corpus", String(DEFAULT_CORPUS_SIZE))), sizes);
    console.log(JSON.stringify({ bench: "analytics", machine: { cpus: cpus().length, load: loadavg().map((x) => Number(x.toFixed(2))) }, backend }, null, 1));
    return;
  }
  const corpus = Number(arg("corpus", String(DEFAULT_CORPUS_SIZE)));
  const sizes = arg("sizes", "500,2000").split(",").map(Number);
  const keep = new Set(["id", "case_number", "decision_date", "jurisdiction", "judges", ...ANALYSIS_FIELDS, ...NAME_FIELDS]);
  const t0 = performance.now();
  const docs: Record<string, unknown>[] = [];
  const texts: { document_id: string; case_number: string; text: string }[] = [];
  for (let i = 0; i < corpus; i++) {
    const row = generateJudgment(DEFAULT_CORPUS_SEED, i);
    if (texts.length < 200) texts.push({ document_id: row.id, case_number: row.case_number, text: row.full_text });
    docs.push(Object.fromEntries(Object.entries(row).filter(([k]) => keep.has(k))));
  }
  const generateMs = performance.now() - t0;
  const dir = mkdtempSync(path.join(tmpdir(), "bench-analytics-"));
  const file = path.join(dir, "corpus.json");
  writeFileSync(file, JSON.stringify(docs));

  const topics = sizes.map((sample) => {
    const r = spawnSync(process.execPath, [...process.execArgv, __filename, "--child", String(sample), file, "--runs", String(runs)], {
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`child for sample ${sample} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  });
  rmSync(dir, { recursive: true, force: true });

  scoreStyles(texts.slice(0, 20));
  const styleMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    scoreStyles(texts);
    styleMs.push(performance.now() - t);
  }
  const chars = texts.reduce((s, x) => s + x.text.length, 0);

  const database = arg("database", "");
  const backend = database ? await backendRuns(database, corpus, sizes) : null;

  const discoverDocs = seededSample(docs as unknown as AnalysisDocument[], 500, 42);
  const vectors = discoverDocs.map((d) => localHashVector(analysisText(d)));
  const discover = (seed: number) => {
    const clustering = clusterVectors(vectors, { k: 8, seed });
    const tfidf = buildTfidf(discoverDocs.map((d) => analysisTokens(analysisText(d), undefined, nameTerms(d))));
    const labels = clusterLabels(clustering, tfidf, 5);
    const edges = clustering.clusters.reduce((n, c) => n + similarityEdges(vectors, 0.8, c.members).length, 0);
    return { clusters: clustering.clusters.length, iterations: clustering.iterations, labels, edges };
  };
  discover(41);
  const discoverMs: number[] = [];
  let lastDiscover = discover(41);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    lastDiscover = discover(42 + i);
    discoverMs.push(performance.now() - t);
  }

  console.log(
    JSON.stringify(
      {
        bench: "analytics",
        machine: { cpus: cpus().length, load: loadavg().map((x) => Number(x.toFixed(2))) },
        corpus: { judgments: corpus, generate_ms: Math.round(generateMs) },
        topics,
        backend,
        targets: { sample_500_p50_ms: 3000, sample_2000_p50_ms: 10000, discover_500_ms: 3000 },
        styles: { documents: texts.length, characters: chars, ...stats(styleMs) },
        discover: {
          judgments: vectors.length,
          dimensions: vectors[0]?.length ?? 0,
          clusters: lastDiscover.clusters,
          kmeans_iterations: lastDiscover.iterations,
          edges_at_0_8: lastDiscover.edges,
          labels: lastDiscover.labels.map((l) => l.label),
          ...stats(discoverMs),
        },
      },
      null,
      1,
    ),
  );
}

if (process.argv.includes("--child")) {
  const i = process.argv.indexOf("--child");
  child(process.argv[i + 2], Number(process.argv[i + 1]));
} else if (process.argv.includes("--backend-child")) {
  const i = process.argv.indexOf("--backend-child");
  void backendChild(process.argv[i + 2], Number(process.argv[i + 1]));
} else {
  void main();
}
