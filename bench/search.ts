/**
 * bench/search: search latency, build time, memory and relevance on the full demo corpus, side by side with a
 * Postgres full-text baseline (websearch_to_tsquery + ts_rank_cd over search_baseline_tsv, the same fields and
 * weight order). Prints JSON.
 *
 *   npx tsx bench/search.ts [--size 12307] [--rounds 5] [--app-url http://127.0.0.1:3000] [--port 54541]
 *                           [--data-dir .data/bench-search] [--reuse-index]
 *
 * It runs its own embedded Postgres in .data/bench-search (seeded once with the deterministic corpus) and builds the
 * index into .data/bench-search/index. HTTP figures go through the route handlers'
 * logic (lib/backend/search.ts behind the routes' zod schemas) served by a plain node:http server in this process,
 * or through a running app when --app-url is given. Warm figures: every query runs once before timing.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { Identity } from "../lib/api/identity";
import { startDatabase } from "../supabase/local/stack";
import { repoRoot } from "../supabase/local/paths";
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
  },
});
const SIZE = Number(values.size);
const ROUNDS = Number(values.rounds);
const dataDir = path.resolve(values["data-dir"] ?? path.join(repoRoot, ".data", "bench-search"));
process.env.SEARCH_DATA_DIR = path.join(dataDir, "index");
// The in-process HTTP path runs the real route wrapper: anonymous callers need a Supabase URL/key to exist (nothing
// is contacted without a token), and the per-IP limits are lifted so the bench measures search, not the limiter.
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

interface BenchQuery {
  q: string;
  lang: "pl" | "en";
  kind: "plain" | "typo" | "phrase" | "filtered" | "known";
  filter?: string;
}

const PL: BenchQuery[] = [
  { q: "zabójstwo", lang: "pl", kind: "plain" },
  { q: "rozbój z użyciem noża", lang: "pl", kind: "plain" },
  { q: "kradzież z włamaniem", lang: "pl", kind: "plain" },
  { q: "apelacja obrońcy oskarżonego", lang: "pl", kind: "plain" },
  { q: "kara pozbawienia wolności", lang: "pl", kind: "plain" },
  { q: "zabojstwo", lang: "pl", kind: "typo" },
  { q: "rozbuj", lang: "pl", kind: "typo" },
  { q: "oszustwo kredytowe", lang: "pl", kind: "plain" },
  { q: "\"nadzwyczajne złagodzenie kary\"", lang: "pl", kind: "phrase" },
  { q: "\"środki odurzające\"", lang: "pl", kind: "phrase" },
  { q: "pobicie", lang: "pl", kind: "filtered", filter: "jurisdiction = PL AND decision_date_ts >= 1262304000" },
  { q: "sąd apelacyjny", lang: "pl", kind: "filtered", filter: "base_appeal_outcome IN [outcome_dismissed_or_refused]" },
  { q: "znęcanie się", lang: "pl", kind: "plain" },
  { q: "usiłowanie zabójstwa", lang: "pl", kind: "plain" },
  ...KNOWN_ANSWERS.filter((k) => k.jurisdiction === "PL").map((k) => ({ q: k.query, lang: "pl" as const, kind: "known" as const })),
];
const EN: BenchQuery[] = [
  { q: "murder", lang: "en", kind: "plain" },
  { q: "manslaughter sentence", lang: "en", kind: "plain" },
  { q: "robbery with a knife", lang: "en", kind: "plain" },
  { q: "sentence manifestly excessive", lang: "en", kind: "plain" },
  { q: "conviction unsafe", lang: "en", kind: "plain" },
  { q: "manslaugter", lang: "en", kind: "typo" },
  { q: "robery", lang: "en", kind: "typo" },
  { q: "\"dangerous driving\"", lang: "en", kind: "phrase" },
  { q: "\"grievous bodily harm\"", lang: "en", kind: "phrase" },
  { q: "burglary", lang: "en", kind: "filtered", filter: "jurisdiction = UK" },
  { q: "fraud", lang: "en", kind: "filtered", filter: "jurisdiction = UK AND base_num_victims >= 2" },
  { q: "guilty plea", lang: "en", kind: "plain" },
  { q: "attorney general reference", lang: "en", kind: "plain" },
  { q: "supply of class A drugs", lang: "en", kind: "plain" },
  ...KNOWN_ANSWERS.filter((k) => k.jurisdiction === "UK").map((k) => ({ q: k.query, lang: "en" as const, kind: "known" as const })),
];
const QUERIES = [...PL.slice(0, 20), ...EN.slice(0, 20)];
// Every known answer must be among the 40 (the lists end with them); keep them even if a list is longer than 20.
for (const k of KNOWN_ANSWERS) if (!QUERIES.some((q) => q.q === k.query)) QUERIES.push({ q: k.query, lang: k.jurisdiction === "PL" ? "pl" : "en", kind: "known" });

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
}

async function timed(fn: () => Promise<unknown>, rounds: number): Promise<number[]> {
  await fn(); // warm
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

function stats(xs: number[]) {
  return { n: xs.length, p50_ms: pct(xs, 50), p95_ms: pct(xs, 95), max_ms: pct(xs, 100) };
}

/**
 * Serve the search backend over node:http: query parsing (the routes' zod schemas), lib/backend/search and JSON
 * encoding, exactly what the route handlers do minus Next's router and the auth/limit wrapper (which needs Next's
 * request scope). Use --app-url to measure through the running Next app instead.
 */
async function serveRoutes(): Promise<{ url: string; close: () => Promise<void> }> {
  const backend = await import("../lib/backend/search");
  const { ApiError } = await import("../lib/api/errors");
  const anonymous = { role: "anonymous", userId: null, email: null, via: "none", db: null } as unknown as Identity;
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const query = Object.fromEntries(url.searchParams.entries());
      try {
        let body: unknown;
        if (url.pathname === "/api/search/documents") {
          body = await backend.mapSearchErrors(() =>
            backend.searchDocuments(backend.SearchDocumentsQuery.parse(query), anonymous),
          );
        } else if (url.pathname === "/api/search/autocomplete") {
          body = await backend.mapSearchErrors(() => backend.autocomplete(backend.AutocompleteQuery.parse(query)));
        } else {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      } catch (e) {
        const status = e instanceof ApiError ? e.status : 500;
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: String(e) }));
      }
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function main(): Promise<void> {
  const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);
  const db = await startDatabase({ dataDir, postgresPort: Number(values.port), log });
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 4 });
  const out: Record<string, unknown> = {};
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

    const { getSearch } = await import("../lib/search/engine");
    const { fullSync } = await import("../lib/search/sync");
    const { parseIndexFilter } = await import("../lib/search/filter");
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
    out.rss_after_build_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
    // Where the memory is: V8 heap (live + not yet collected), typed arrays, and the rest (LanceDB's native side).
    const mem = process.memoryUsage();
    out.memory_after_build_mb = {
      heap_used: Math.round(mem.heapUsed / 2 ** 20),
      heap_total: Math.round(mem.heapTotal / 2 ** 20),
      array_buffers: Math.round(mem.arrayBuffers / 2 ** 20),
      external: Math.round(mem.external / 2 ** 20),
    };

    const kw: number[] = [];
    const hy: number[] = [];
    const ac: number[] = [];
    const perQuery: Array<Record<string, unknown>> = [];
    for (const bq of QUERIES) {
      const filter = parseIndexFilter(bq.filter);
      const k = await timed(() => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, attributesToHighlight: ["title", "summary"], attributesToCrop: ["summary"], cropLength: 40 }), ROUNDS);
      const h = await timed(() => engine.searchDocuments({ q: bq.q, filter, limit: 20, offset: 0, semanticRatio: 0.5 }), ROUNDS);
      kw.push(...k);
      hy.push(...h);
      const words = bq.q.replace(/"/g, "").split(/\s+/);
      for (const prefix of [words[0].slice(0, 3), words.slice(0, 2).join(" ")]) {
        ac.push(...(await timed(() => engine.autocomplete({ q: prefix, limit: 10, filter }), ROUNDS)));
      }
      const r = await engine.searchDocuments({ q: bq.q, filter, limit: 3, offset: 0 });
      perQuery.push({ q: bq.q, kind: bq.kind, lang: bq.lang, total: r.estimatedTotal, kw_p50_ms: pct(k, 50) });
    }
    out.engine = { keyword: stats(kw), hybrid: stats(hy), autocomplete: stats(ac) };

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

    // Postgres full-text baseline: same queries, same top-20 page, same filters where they translate directly.
    const pgTimes: number[] = [];
    const pgFilter = (f?: string) =>
      !f
        ? ""
        : f
            .replace(/jurisdiction = (PL|UK)/g, "jurisdiction = '$1'")
            .replace(/decision_date_ts >= (\d+)/g, "decision_date >= to_timestamp($1)::date")
            .replace(/base_appeal_outcome IN \[(\w+)\]/g, "base_appeal_outcome && array['$1']")
            .replace(/base_num_victims >= (\d+)/g, "base_num_victims >= $1");
    for (const bq of QUERIES) {
      const where = pgFilter(bq.filter);
      const sql = `select id, ts_rank_cd(search_baseline_tsv, q) as rank
                     from public.judgments, websearch_to_tsquery('simple', public.immutable_unaccent($1)) q
                    where search_baseline_tsv @@ q ${where ? `and ${where}` : ""}
                    order by rank desc, id limit 20`;
      pgTimes.push(...(await timed(() => pool.query(sql, [bq.q]), ROUNDS)));
    }
    const pgStats = stats(pgTimes);
    out.postgres_fts_baseline = pgStats;
    out.speedup_vs_postgres_p50 = Number((pgStats.p50_ms / Math.max(0.01, (out.engine as { keyword: { p50_ms: number } }).keyword.p50_ms)).toFixed(1));

    // HTTP end to end.
    const server = values["app-url"] ? null : await serveRoutes();
    const base = values["app-url"] ?? (server as { url: string }).url;
    const get = async (p: string) => {
      const r = await fetch(base + p);
      if (r.status !== 200) throw new Error(`${p} → ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    // Signed-in users get hybrid; this bench calls anonymously, so HTTP hybrid is measured in-engine only.
    const hk: number[] = [];
    const ha: number[] = [];
    for (const bq of QUERIES) {
      const f = bq.filter ? `&filter=${encodeURIComponent(bq.filter)}` : "";
      hk.push(...(await timed(() => get(`/api/search/documents?q=${encodeURIComponent(bq.q)}${f}`), ROUNDS)));
      const prefix = bq.q.replace(/"/g, "").split(/\s+/)[0].slice(0, 3);
      ha.push(...(await timed(() => get(`/api/search/autocomplete?q=${encodeURIComponent(prefix)}${f}`), ROUNDS)));
    }
    await server?.close();
    out.http = {
      via: values["app-url"] ? "running app" : "backend over node:http (no Next router)",
      keyword: stats(hk),
      autocomplete: stats(ha),
      speedup_vs_postgres_p50: Number((pgStats.p50_ms / Math.max(0.01, pct(hk, 50))).toFixed(1)),
    };
    out.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
    out.queries = perQuery;
    await engine.close();
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
