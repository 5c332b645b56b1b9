/**
 * bench/search-engine-profile: in-process keyword search latency of the LanceDB adapter on an existing index, with no
 * Postgres and no HTTP (for profiling the engine itself). Runs the 40 queries of bench/search.ts (with their
 * filters) as lib/backend/search.ts asks for them, interleaved over rounds, and prints JSON with per-query p50 and
 * pooled p50/p95.
 *
 *   npx tsx bench/search-engine-profile.ts [--index .data/bench-search/index] [--rounds 40] [--ratio 0.5]
 *                                          [--dump results.json] [--check results.json] [--highlight-cost]
 *
 * --ratio R (0 < R <= 1) sends every request with semanticRatio R (hybrid search; the query is embedded with the
 * index's embedder); the default is a keyword-only request, exactly as before. With --ratio, --dump/--check also
 * cover similar() for the first hit of each query.
 *
 * --dump writes every result the timed requests (and some variants: deeper pages, sort, facets, strategy "all",
 * attributesToSearchOn) return; --check compares the current results with such a file and exits 1 on any
 * difference (hit ids, order, scores, estimatedTotal, formatted, facets), so a speed change can prove it changed
 * no result. The index is only read.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import type { SearchDocumentsRequest } from "../lib/search/types";
import { SEARCH_BENCH_QUERIES, type BenchQuery } from "./lib/search-queries";
import { engineOnIndex, highlightCost, pct3 as pct } from "./lib/engine-bench";

const { values } = parseArgs({
  options: {
    index: { type: "string", default: ".data/bench-search/index" },
    rounds: { type: "string", default: "40" },
    dump: { type: "string" },
    check: { type: "string" },
    ratio: { type: "string", default: "0" },
    /** Only time keyword requests with and without highlighting, alternating blocks (bench/lib/engine-bench.ts). */
    "highlight-cost": { type: "boolean", default: false },
  },
});
process.env.SEARCH_DATA_DIR = path.resolve(values.index);
const ROUNDS = Number(values.rounds);
const RATIO = Number(values.ratio);
if (!(RATIO >= 0 && RATIO <= 1)) throw new Error(`--ratio must be in [0, 1], got ${values.ratio}`);
/** Added to every request: nothing for the default keyword-only run, so its requests stay exactly as they were. */
const HYBRID: Pick<SearchDocumentsRequest, "semanticRatio"> = RATIO > 0 ? { semanticRatio: RATIO } : {};

const QUERIES = SEARCH_BENCH_QUERIES;


function queryParts(p: Pick<SearchDocumentsRequest, "q" | "filter" | "fieldTerms"> & { fieldTerms: readonly unknown[] }) {
  return { q: p.q, filter: p.filter, ...(p.fieldTerms.length > 0 ? { fieldTerms: p.fieldTerms } : {}) } as Pick<SearchDocumentsRequest, "q" | "filter" | "fieldTerms">;
}

async function main(): Promise<void> {
  const { engine, parseIndexFilter, SEARCH_HIT_FORMAT, searchQueryParts } = await engineOnIndex();
  // What lib/backend/search.ts asks for (the query language read out of q).
  const request = (bq: BenchQuery): SearchDocumentsRequest => ({
    ...queryParts(searchQueryParts(bq.q, parseIndexFilter(bq.filter))),
    limit: 20,
    offset: 0,
    ...SEARCH_HIT_FORMAT,
    ...HYBRID,
  });
  const t0 = performance.now();
  await engine.searchDocuments({ q: "warm", limit: 1, offset: 0 });
  const openMs = performance.now() - t0;

  if (values.dump || values.check) {
    const results: Record<string, unknown> = {};
    for (const bq of QUERIES) {
      const base = request(bq);
      const variants: Record<string, SearchDocumentsRequest> = {
        page1: base,
        page3: { ...base, offset: 40, limit: 20 },
        deep: { ...base, offset: 0, limit: 1000 },
        sorted: { ...base, sort: [{ attribute: "decision_date_ts", direction: "desc" }], offset: 10, limit: 20 },
        facets: { ...base, limit: 5, facets: ["jurisdiction", "base_appeal_outcome"] },
        all: { ...base, matchingStrategy: "all" },
        titleOnly: { ...base, attributesToSearchOn: ["title", "summary"], attributesToHighlight: ["*"] },
        noFormat: { q: bq.q, filter: base.filter, limit: 20, offset: 0, ...HYBRID },
        retrieve: { ...base, attributesToRetrieve: ["court_name", "title", "full_text", "nope"], cropLength: 5 },
        retrieveId: { ...base, attributesToRetrieve: ["title", "id"], attributesToCrop: ["title"] },
        retrieveStar: { ...base, attributesToRetrieve: ["title", "*"], limit: 3 },
      };
      for (const [name, req] of Object.entries(variants)) {
        const r = await engine.searchDocuments(req);
        results[`${bq.q} | ${name}`] = {
          ids: r.hits.map((h) => h.document.id),
          scores: r.hits.map((h) => h.score),
          documents: name === "page1" || name.startsWith("retrieve") ? r.hits.map((h) => h.document) : undefined,
          formatted: r.hits.map((h) => h.formatted ?? null),
          estimatedTotal: r.estimatedTotal,
          totalCapped: r.totalCapped,
          facetDistribution: r.facetDistribution ?? null,
        };
      }
      const f = await engine.facets({ q: bq.q, filter: base.filter, facets: ["jurisdiction"] });
      results[`${bq.q} | facets()`] = { facetDistribution: f.facetDistribution, total: f.total };
      if (RATIO > 0) {
        // similar() shares the vector scan: its neighbours of the query's first hit, with and without the filter.
        const first = (await engine.searchDocuments({ ...base, limit: 1 })).hits[0]?.document.id;
        if (first !== undefined) {
          for (const [name, filter] of [["similar()", undefined], ["similarFiltered()", base.filter]] as const) {
            const s = await engine.similar({ id: first, limit: 20, filter, attributesToRetrieve: ["title"] });
            results[`${bq.q} | ${name}`] = { id: first, hits: s.hits, mode: s.mode };
          }
        }
      }
    }
    // JSON round trip so the comparison sees exactly what a file holds (undefined keys dropped).
    const current = JSON.parse(JSON.stringify(results)) as Record<string, unknown>;
    if (values.dump) writeFileSync(values.dump, JSON.stringify(current) + "\n");
    if (values.check) {
      const before = JSON.parse(readFileSync(values.check, "utf8")) as Record<string, unknown>;
      const keys = new Set([...Object.keys(before), ...Object.keys(current)]);
      // Compared as JSON text, so key order counts too.
      const differ = [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(current[k]));
      process.stdout.write(JSON.stringify({ check: values.check, compared: keys.size, differ }, null, 2) + "\n");
      await engine.close();
      if (differ.length > 0) process.exit(1);
      return;
    }
  }

  if (values["highlight-cost"]) {
    const pairs = QUERIES.map((bq) => {
      const req = request(bq);
      const bare: SearchDocumentsRequest = { q: req.q, filter: req.filter, fieldTerms: req.fieldTerms, limit: 20, offset: 0, ...HYBRID };
      return { withFormat: () => engine.searchDocuments(req), withoutFormat: () => engine.searchDocuments(bare) };
    });
    const load = Number(os.loadavg()[0].toFixed(2));
    const cost = await highlightCost(pairs, Math.max(1, Math.round(ROUNDS / 8)));
    process.stdout.write(JSON.stringify({ index: values.index, load_avg_1m_before: load, load_avg_1m_after: Number(os.loadavg()[0].toFixed(2)), keyword_highlight_cost: cost }, null, 2) + "\n");
    await engine.close();
    return;
  }

  for (const bq of QUERIES) await engine.searchDocuments(request(bq));
  const per = new Map<string, number[]>(QUERIES.map((bq) => [bq.q, []]));
  const tRun = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    for (const bq of QUERIES) {
      const req = request(bq);
      const t = performance.now();
      await engine.searchDocuments(req);
      (per.get(bq.q) as number[]).push(performance.now() - t);
    }
  }
  const runMs = performance.now() - tRun;
  const all = [...per.values()].flat();
  const typical = QUERIES.filter((bq) => bq.kind !== "known").flatMap((bq) => per.get(bq.q) as number[]);
  const out = {
    index: values.index,
    rounds: ROUNDS,
    semantic_ratio: RATIO,
    load_avg_1m: Number(os.loadavg()[0].toFixed(2)),
    open_ms: Math.round(openMs),
    run_ms: Math.round(runMs),
    pooled: { n: all.length, p50_ms: pct(all, 50), p95_ms: pct(all, 95) },
    /** The 28 queries that are not planted needles. */
    typical: { n: typical.length, p50_ms: pct(typical, 50), p95_ms: pct(typical, 95) },
    per_query_p50_ms: Object.fromEntries([...per].map(([q, ts]) => [q, pct(ts, 50)])),
  };
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  await engine.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
