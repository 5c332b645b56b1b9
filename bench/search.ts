/**
 * bench/search: search latency, build time, memory and relevance on the full demo corpus, side by side with a
 * Postgres full-text baseline. Prints JSON.
 *
 *   npx tsx bench/search.ts [--size 12307] [--rounds 5] [--app-url http://127.0.0.1:3000] [--port 54541]
 *                           [--data-dir .data/bench-search] [--reuse-index] [--highlight-cost]
 *
 * It runs its own embedded Postgres in .data/bench-search (seeded once with the deterministic corpus) and builds the
 * index into .data/bench-search/index. Warm figures: every query runs once before timing.
 *
 * The comparison the issue asks for ("HTTP end to end, warm: at least 5x faster than the Postgres full-text
 * baseline at p50") is made between two services answering the same request with the same body, behind the same
 * node:http server in this process (the routes' zod schema, then JSON): `/api/search/documents` served by
 * lib/backend/search.ts, and `/baseline/search/documents` served from Postgres full text (bench/lib/postgres-fts.ts:
 * websearch_to_tsquery + ts_rank_cd over the same fields and weight order, the page's fields, ts_headline highlights,
 * the match count capped at 1000). Each query is timed warm on one service, then on the other (a block of --rounds
 * requests each, query after query, so drift over the run hits both alike); the same requests alternating one by one
 * are timed too and printed beside it, because alternating makes each request follow ~6 ms of the other service's
 * work and costs the faster one its warm caches (P-18 in docs/decisions.md). The bare "top 20 ids" SQL of the
 * baseline is also timed, in the database, against our engine in process.
 *
 * With --app-url, our endpoints are also measured through the running Next app (router, rate limits, identity,
 * analytics): the bench signs a throwaway user in (service-role key from the environment or .env.local; semantic
 * search needs a signed-in user) and the app must be started with the search limits raised, e.g.
 * `SEARCH_DOCUMENTS_RATE_LIMIT=1000000 GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { Identity } from "../lib/api/identity";
import { measureThroughApp, type AppLatency } from "./lib/app-latency";
import { annPhase } from "./lib/ann-recall";
import { highlightCost } from "./lib/engine-bench";
import { concurrentComparison } from "./search-concurrent";
import { autocompletePath, httpClient, hybridPath, pct, searchPath, stats, timeOnce, timed } from "./lib/http-timing";
import { postgresFtsSearch } from "./lib/postgres-fts";
import { SEARCH_BENCH_QUERIES } from "./lib/search-queries";
import { startDatabase } from "../server/launcher/stack";
import { readEnvFile } from "../server/env-file";
import { repoRoot } from "../server/paths";
import { seedCorpus } from "../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED } from "../supabase/seed/generate";
import { KNOWN_ANSWERS, knownAnswerId } from "../supabase/seed/known-answers";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "12307" },
    rounds: { type: "string", default: "5" },
    "app-url": { type: "string" },
    port: { type: "string", default: "54541" },
    /** Postgres cluster and index directory (several benches can run side by side with their own). */
    "data-dir": { type: "string" },
    /** Rows per sync batch; the default is the sync job's own (lib/search/sync.ts), so the build is the real one. */
    "batch-size": { type: "string", default: "250" },
    /** Skip the build when the index already holds the corpus (iterating on query figures). */
    "reuse-index": { type: "boolean", default: false },
    /** Also time the engine's keyword requests with and without highlighting, alternating blocks (docs/bench.md). */
    "highlight-cost": { type: "boolean", default: false },
  },
});
const SIZE = Number(values.size);
const ROUNDS = Number(values.rounds);
const dataDir = path.resolve(values["data-dir"] ?? path.join(repoRoot, ".data", "bench-search"));
process.env.SEARCH_DATA_DIR = path.join(dataDir, "index");
// The in-process HTTP path runs the real route wrapper: anonymous callers need a Supabase URL/key to exist (nothing
// is contacted without a token), and the per-IP limits are lifted so the bench measures search, not the limiter.
// With --app-url the admin API of the running stack is needed (its keys are in .env.local).
if (values["app-url"]) {
  const fileEnv = readEnvFile(path.join(repoRoot, ".env.local"));
  for (const k of ["SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_SERVICE_ROLE_KEY"]) process.env[k] ??= fileEnv[k];
}
process.env.SUPABASE_URL ??= "http://127.0.0.1:9";
process.env.SUPABASE_ANON_KEY ??= "bench-anon-key";
for (const k of [
  "SEARCH_DOCUMENTS_RATE_LIMIT",
  "GENERAL_RATE_LIMIT_PER_MINUTE",
  "FALLBACK_RATE_LIMIT_PER_MINUTE",
  "FALLBACK_RATE_LIMIT_PER_HOUR",
  "API_KEY_RATE_LIMIT_PER_HOUR",
]) {
  process.env[k] ??= "100000000";
}

const QUERIES = SEARCH_BENCH_QUERIES;

/**
 * The state of this shared machine when the figures were taken: load average, a CPU-bound workload (a JSON round
 * trip of a ~40 KB search answer) and a memory-bound one (summing 64 MB of floats), in ms. Absolute latencies move
 * with both (neighbours on the host share caches and memory bandwidth); compare runs by them.
 */
const scanBuffer = new Float32Array(16 * 2 ** 20).fill(1);
function machineState(): { load_average: number[] | null; cpu_calibration_ms: number; memory_calibration_ms: number } {
  const doc = { title: "x".repeat(200), summary: "lorem ipsum ".repeat(150), keywords: ["a", "b", "c"], n: 1 };
  const body = { hits: Array.from({ length: 20 }, (_, i) => ({ ...doc, id: String(i) })) };
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) JSON.parse(JSON.stringify(body));
  const cpu = (performance.now() - t0) / 200;
  const t1 = performance.now();
  let sum = 0;
  for (let r = 0; r < 5; r++) for (let i = 0; i < scanBuffer.length; i++) sum += scanBuffer[i];
  const mem = (performance.now() - t1) / 5;
  if (sum !== 5 * scanBuffer.length) throw new Error("calibration sum");
  const load = existsSync("/proc/loadavg") ? readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) : null;
  return { load_average: load, cpu_calibration_ms: Number(cpu.toFixed(3)), memory_calibration_ms: Number(mem.toFixed(2)) };
}

/** Where the memory is: V8 heap (live + not yet collected), typed arrays, and the rest (LanceDB's native side), MB. */
function memoryBreakdown(): Record<string, number> {
  const mem = process.memoryUsage();
  const mb = (n: number) => Math.round(n / 2 ** 20);
  return {
    rss: mb(mem.rss),
    heap_used: mb(mem.heapUsed),
    heap_total: mb(mem.heapTotal),
    array_buffers: mb(mem.arrayBuffers),
    external: mb(mem.external),
  };
}

/**
 * Serve the search backend and the Postgres baseline over node:http: query parsing (the routes' zod schema), the
 * search, JSON encoding; exactly what the route handler does minus Next's router and the auth/limit wrapper (which
 * needs Next's request scope; --app-url measures through the running app). Callers count as signed in, so
 * semantic_ratio is honoured.
 */
async function serveRoutes(pool: pg.Pool): Promise<{ url: string; close: () => Promise<void> }> {
  const backend = await import("../lib/backend/search");
  const { ApiError } = await import("../lib/errors");
  const signedIn = { role: "user", userId: "00000000-0000-4000-8000-000000000000", email: null, via: "cookie", db: null } as unknown as Identity;
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const query = Object.fromEntries(url.searchParams.entries());
      try {
        let body: unknown;
        if (url.pathname === "/api/search/documents") {
          body = await backend.mapSearchErrors(() =>
            backend.searchDocuments(backend.SearchDocumentsQuery.parse(query), signedIn),
          );
        } else if (url.pathname === "/baseline/search/documents") {
          const p = backend.SearchDocumentsQuery.parse(query);
          body = await postgresFtsSearch(pool, { q: p.q, filter: backend.parseFilterParam(p.filter), limit: p.limit, offset: p.offset });
        } else if (url.pathname === "/api/search/autocomplete") {
          body = await backend.mapSearchErrors(() => backend.autocomplete(backend.AutocompleteQuery.parse(query)));
        } else {
          res.writeHead(404).end();
          return;
        }
        // Serialised as the routes do (Response.json is JSON.stringify).
        const json = JSON.stringify(body);
        res.writeHead(200, { "content-type": "application/json" }).end(json);
      } catch (e) {
        const status = e instanceof ApiError ? e.status : 500;
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: String(e) }));
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function main(): Promise<void> {
  const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);
  const db = await startDatabase({ dataDir, postgresPort: Number(values.port), log });
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 4 });
  pool.on("error", () => undefined); // idle clients see the server stop at the end (as in bench/search-build.ts)
  const out: Record<string, unknown> = { machine_at_start: machineState() };
  try {
    const count = Number((await pool.query("select count(*) as n from public.judgments")).rows[0].n);
    if (count !== SIZE) {
      await pool.query("truncate public.judgments cascade");
      log(`seeding ${SIZE} judgments…`);
      const s = await seedCorpus(db.databaseUrl, { size: SIZE, seed: DEFAULT_CORPUS_SEED });
      out.seed_ms = s.ms;
    }
    // The Postgres baseline's tsvector lives only in the bench database (bench/sql/search-baseline.sql).
    log("preparing the Postgres full-text baseline column…");
    await pool.query(readFileSync(path.join(repoRoot, "bench", "sql", "search-baseline.sql"), "utf8"));
    await pool.query("analyze public.judgments");

    // A build is timed from an empty index: opening the previous run's generation first (engine.health below) would
    // hold it in memory through the build (at 10x ~2.5 GB more, and a slower build with a bigger heap to collect).
    if (!values["reuse-index"]) rmSync(process.env.SEARCH_DATA_DIR as string, { recursive: true, force: true });
    const { getSearch } = await import("../lib/search/engine");
    const { fullSync } = await import("../lib/search/sync");
    const { parseIndexFilter } = await import("../lib/search/filter");
    const { SEARCH_HIT_FORMAT, searchQueryParts } = await import("../lib/backend/search");
    const { engine, embedder } = getSearch();
    log("building the index…");
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    let lastLog = 0;
    const health = await engine.health();
    const reuse = values["reuse-index"] && health.documents === SIZE;
    const built = reuse
      ? { documents: health.documents, chunks: health.chunks }
      : await fullSync(pool, {
      engine,
      embedder,
      batchSize: Number(values["batch-size"]),
      onProgress: (p) => {
        if (Date.now() - lastLog > 15_000) {
          lastLog = Date.now();
          log(`sync ${p.done}/${p.total} (${Math.round((performance.now() - t0) / 1000)} s)`);
        }
      },
    });
    const buildMs = performance.now() - t0;
    await engine.searchDocuments({ q: "warm", limit: 1, offset: 0 });
    out.corpus = { judgments: built.documents, chunks: built.chunks, embedder: embedder.label };
    out.build = reuse
      ? { reused: true, open_ms: Math.round(buildMs) }
      : { full_sync_ms: Math.round(buildMs), rss_before_mb: Math.round(rss0 / 2 ** 20) };
    // The process's peak resident set so far (the build's peak when it built): getrusage's ru_maxrss, in KB.
    out.rss_peak_after_build_mb = Math.round(process.resourceUsage().maxRSS / 1024);
    out.rss_after_build_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
    // Where the memory is: V8 heap (live + not yet collected), typed arrays, and the rest (LanceDB's native side).
    out.memory_after_build_mb = memoryBreakdown();
    // With `node --expose-gc` (NODE_OPTIONS): what is still live once the garbage is collected, to tell a leak from
    // garbage the collector has not reached yet.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) {
      gc();
      out.memory_after_build_and_gc_mb = memoryBreakdown();
    }

    const kw: number[] = [];
    const hy: number[] = [];
    const ac: number[] = [];
    const perQuery: Array<Record<string, unknown>> = [];
    for (const bq of QUERIES) {
      // The query language read as lib/backend/search.ts reads it (phrases, exclusions, fields).
      const parts = searchQueryParts(bq.q, parseIndexFilter(bq.filter));
      const filter = parts.filter;
      const base = { q: parts.q, filter, ...(parts.fieldTerms.length > 0 ? { fieldTerms: parts.fieldTerms } : {}) };
      const k = await timed(() => engine.searchDocuments({ ...base, limit: 20, offset: 0, ...SEARCH_HIT_FORMAT }), ROUNDS);
      const h = await timed(() => engine.searchDocuments({ ...base, limit: 20, offset: 0, semanticRatio: 0.5 }), ROUNDS);
      kw.push(...k);
      hy.push(...h);
      const words = bq.q.replace(/"/g, "").split(/\s+/);
      for (const prefix of [words[0].slice(0, 3), words.slice(0, 2).join(" ")]) {
        ac.push(...(await timed(() => engine.autocomplete({ q: prefix, limit: 10, filter }), ROUNDS)));
      }
      perQuery.push({ q: bq.q, kind: bq.kind, lang: bq.lang, kw_p50_ms: pct(k, 50) });
    }
    out.engine = { keyword: stats(kw), hybrid: stats(hy), autocomplete: stats(ac) };
    if (values["highlight-cost"]) {
      const pairs = QUERIES.map((bq) => {
        const parts = searchQueryParts(bq.q, parseIndexFilter(bq.filter));
        const base = { q: parts.q, filter: parts.filter, ...(parts.fieldTerms.length > 0 ? { fieldTerms: parts.fieldTerms } : {}), limit: 20, offset: 0 };
        return {
          withFormat: () => engine.searchDocuments({ ...base, ...SEARCH_HIT_FORMAT }),
          withoutFormat: () => engine.searchDocuments(base),
        };
      });
      (out.engine as Record<string, unknown>).keyword_highlight_cost = { load_average_before: machineState().load_average, ...(await highlightCost(pairs, ROUNDS)) };
    }
    out.ann = await annPhase(engine, { size: SIZE, rounds: ROUNDS });

    // Relevance: every planted known answer in the top 3 of its query (and its alternative phrasings).
    const relevance = [];
    for (const k of KNOWN_ANSWERS) {
      const want = knownAnswerId(DEFAULT_CORPUS_SEED, k.key);
      for (const q of [k.query, ...k.altQueries]) {
        const r = await engine.searchDocuments({ q, limit: 3, offset: 0 });
        const rank = r.hits.findIndex((h) => h.document.id === want);
        relevance.push({ key: k.key, query: q, primary: q === k.query, rank: rank < 0 ? null : rank + 1 });
      }
    }
    const primary = relevance.filter((r) => r.primary);
    out.relevance = {
      known_answers: primary.length,
      in_top3: primary.filter((r) => r.rank !== null).length,
      alt_queries_in_top3: `${relevance.filter((r) => !r.primary && r.rank !== null).length}/${relevance.filter((r) => !r.primary).length}`,
      misses: relevance.filter((r) => r.rank === null),
    };

    // The baseline's bare ranking SQL (top-20 ids, no fields, no count), in the database: the floor of its cost.
    const { filterToSql } = await import("./lib/postgres-fts");
    const sqlIds: number[] = [];
    for (const bq of QUERIES) {
      const params: unknown[] = [bq.q];
      const f = parseIndexFilter(bq.filter);
      const where = f ? `and ${filterToSql(f, params)}` : "";
      const sql = `select id, ts_rank_cd(search_baseline_tsv, q) as rank
                     from public.judgments, websearch_to_tsquery('simple', public.immutable_unaccent($1)) q
                    where search_baseline_tsv @@ q ${where}
                    order by rank desc, id limit 20`;
      sqlIds.push(...(await timed(() => pool.query(sql, params), ROUNDS)));
    }

    // HTTP end to end: ours and the Postgres baseline behind the same server; per query a warm block on each
    // service, then the same requests alternating one by one (printed beside it; P-18).
    const server = await serveRoutes(pool);
    const local = httpClient(server.url);
    const oursHttp: number[] = [];
    const baseHttp: number[] = [];
    const oursAlternating: number[] = [];
    const baseAlternating: number[] = [];
    const hybridHttp: number[] = [];
    const acHttp: number[] = [];
    const comparison: Array<Record<string, unknown>> = [];
    for (const bq of QUERIES) {
      const oursPath = searchPath(bq);
      const basePath = oursPath.replace("/api/", "/baseline/");
      const ours = (await local.json(oursPath)) as { estimated_total: number; hits: Array<{ id: string }> };
      const o = await timed(() => local.json(oursPath), ROUNDS);
      const base = (await local.json(basePath)) as { estimated_total: number; hits: Array<{ id: string }> };
      const b = await timed(() => local.json(basePath), ROUNDS);
      oursHttp.push(...o);
      baseHttp.push(...b);
      for (let i = 0; i < ROUNDS; i++) {
        oursAlternating.push(await timeOnce(() => local.json(oursPath)));
        baseAlternating.push(await timeOnce(() => local.json(basePath)));
      }
      hybridHttp.push(...(await timed(() => local.json(hybridPath(bq)), ROUNDS)));
      acHttp.push(...(await timed(() => local.json(autocompletePath(bq)), ROUNDS)));
      comparison.push({
        q: bq.q,
        kind: bq.kind,
        ours_p50_ms: pct(o, 50),
        baseline_p50_ms: pct(b, 50),
        ratio: Number((pct(b, 50) / Math.max(0.01, pct(o, 50))).toFixed(1)),
        ours_total: ours.estimated_total,
        baseline_total: base.estimated_total,
        same_top1: ours.hits[0]?.id !== undefined && ours.hits[0]?.id === base.hits[0]?.id,
      });
    }
    local.close();
    out.concurrent_vs_postgres = await concurrentComparison(server.url, QUERIES, { clients: 8, seconds: Number(process.env.BENCH_CONCURRENT_SECONDS ?? 30) });
    await server.close();

    const ratioOf = (a: number[], b: number[]) => Number((pct(a, 50) / Math.max(0.01, pct(b, 50))).toFixed(1));
    const perQueryRatios = comparison.map((c) => c.ratio as number).sort((a, b) => a - b);
    out.postgres_fts_baseline = {
      http_same_response: stats(baseHttp),
      http_same_response_alternating: stats(baseAlternating),
      sql_top20_ids_in_database: stats(sqlIds),
      queries_with_no_match: comparison.filter((c) => c.baseline_total === 0).map((c) => c.q),
    };
    out.http = {
      via: "backend over node:http in this process (same server and client as the baseline)",
      keyword: stats(oursHttp),
      keyword_alternating_with_baseline: stats(oursAlternating),
      hybrid: stats(hybridHttp),
      autocomplete: stats(acHttp),
    };
    out.speedup_vs_postgres = {
      http_end_to_end_p50: ratioOf(baseHttp, oursHttp),
      http_end_to_end_p50_requests_alternating: ratioOf(baseAlternating, oursAlternating),
      http_end_to_end_p95: Number((pct(baseHttp, 95) / Math.max(0.01, pct(oursHttp, 95))).toFixed(1)),
      engine_vs_sql_top20_ids_p50: ratioOf(sqlIds, kw),
      median_of_per_query_ratios: perQueryRatios[Math.floor(perQueryRatios.length / 2)],
    };
    out.comparison = comparison;

    // Through the running Next app (router, limits, identity, analytics), signed in.
    let appFigures: AppLatency | null = null;
    if (values["app-url"]) {
      appFigures = await measureThroughApp(values["app-url"], ROUNDS);
      out.http_through_app = { ...appFigures, speedup_vs_postgres_http_p50: Number((pct(baseHttp, 50) / Math.max(0.01, appFigures.keyword.p50_ms)).toFixed(1)) };
    }

    const endToEnd = appFigures ?? (out.http as { keyword: { p95_ms: number; p50_ms: number }; hybrid: { p95_ms: number }; autocomplete: { p95_ms: number } });
    const speed = out.speedup_vs_postgres as { http_end_to_end_p50: number };
    const rel = out.relevance as { in_top3: number; known_answers: number };
    out.acceptance = {
      measured_through: appFigures ? "the running app" : "backend over node:http",
      keyword_p50_le_15ms: endToEnd.keyword.p50_ms <= 15,
      keyword_p95_le_40ms: endToEnd.keyword.p95_ms <= 40,
      hybrid_p95_le_60ms: endToEnd.hybrid.p95_ms <= 60,
      autocomplete_p95_le_10ms: endToEnd.autocomplete.p95_ms <= 10,
      five_times_postgres_http_p50: speed.http_end_to_end_p50 >= 5,
      known_answers_top3: `${rel.in_top3}/${rel.known_answers}`,
      build_le_3min: reuse ? "not built in this run" : buildMs <= 180_000,
    };
    // In the engine, this process's peak RSS, and the ANN's recall.
    const eng = out.engine as { keyword: { p50_ms: number }; hybrid: { p50_ms: number }; autocomplete: { p95_ms: number } };
    const ann = out.ann as { recall_at_10_hybrid: number | null };
    out.acceptance_issue20_scale = {
      corpus: SIZE,
      build_le_6min: reuse ? "not built in this run" : buildMs <= 360_000,
      rss_peak_le_4gb: process.resourceUsage().maxRSS / 1024 <= 4096,
      engine_keyword_p50_le_0_5ms: eng.keyword.p50_ms <= 0.5,
      engine_hybrid_p50_le_5ms: eng.hybrid.p50_ms <= 5,
      hybrid_recall_at_10_ge_0_95: ann.recall_at_10_hybrid === null ? "exact scan (below the ANN threshold)" : ann.recall_at_10_hybrid >= 0.95,
      engine_autocomplete_p95_le_3ms: eng.autocomplete.p95_ms <= 3,
    };
    out.machine_at_end = machineState();
    out.memory_at_end_mb = memoryBreakdown();
    out.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
    out.rss_peak_mb = Math.round(process.resourceUsage().maxRSS / 1024);
    out.queries = perQuery;
    await engine.close();
  } catch (e) {
    // Printed before the cleanup, which could fail too and hide the error that ended the run.
    log(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    throw e;
  } finally {
    await pool.end();
    await db.stop();
  }
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
