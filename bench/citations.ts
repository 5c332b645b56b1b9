/**
 * bench/citations: the citator's reference extractor (lib/citations) over the demo corpus texts, printing JSON:
 * judgments per second (target ≥ 500/s), p50/p95 per judgment, references found per kind. Judgments are generated in
 * batches (never the whole corpus in memory) and only extraction is timed. The graph rebuild (database) is timed by
 * `npm run citations:rebuild`, which prints its seconds.
 *
 * With `--app-url http://127.0.0.1:3000` (a running app on the demo corpus) it also times the citator's reads through
 * the app: the most cited judgment's cited-by list and a provision page (art. 279 § 1 k.k.), sequential requests,
 * p50/p95 (targets ≤ 5 ms and ≤ 20 ms). Start the app with the per-address limit raised, as bench/search-through-app.ts
 * does: `GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`.
 *
 * Usage: npx tsx bench/citations.ts [--n 12307] [--app-url URL [--cited-id UUID]] [--requests 200]
 * (`--cited-id` names the judgment to time instead of asking the search index for the most cited one.)
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { extractReferences } from "../lib/citations/extract";
import { pct } from "./lib/http-timing";
import type { Jurisdiction } from "../lib/citations/types";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateRange } from "../supabase/seed/generate";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const n = Math.max(1, Number(process.argv.includes("--n") ? arg("n") : DEFAULT_CORPUS_SIZE) || DEFAULT_CORPUS_SIZE);
const BATCH = 500;
const load = loadavg()[0];

const perDoc: number[] = [];
const kinds: Record<string, number> = {};
let unidentified = 0;
let chars = 0;
let ms = 0;
for (let from = 0; from < n; from += BATCH) {
  const batch = [...generateRange(DEFAULT_CORPUS_SEED, from, Math.min(n, from + BATCH))];
  for (const j of batch) {
    const t0 = performance.now();
    const refs = extractReferences(j.full_text, { jurisdiction: j.jurisdiction as Jurisdiction, ownCitations: [j.case_number] });
    const dt = performance.now() - t0;
    perDoc.push(dt);
    ms += dt;
    chars += j.full_text.length;
    for (const r of refs) {
      kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
      if (!r.canonicalId) unidentified++;
    }
  }
}

const at = (q: number) => pct(perDoc, q * 100, 3);

/** Sequential GETs of `path` through the app: p50/p95 ms of the whole answer (status checked). */
async function timeGets(base: string, path: string, requests: number): Promise<{ path: string; p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < requests + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(base + path, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - t0); // the first five warm the route up
  }
  return { path, p50: pct(times, 50, 3), p95: pct(times, 95, 3) };
}

async function throughApp(base: string, requests: number, citedId: string | null) {
  // The most cited judgment by the search index's sort, or the one named with --cited-id (an app without an index).
  const top = citedId
    ? { hits: [{ id: citedId, cited_by_count: ((await (await fetch(`${base}/api/documents/${citedId}/cited-by?limit=1`)).json()) as { total: number }).total }] }
    : ((await (await fetch(`${base}/api/search/documents?q=&sort=cited_by&limit=1`)).json()) as { hits: { id: string; cited_by_count?: number }[] });
  const leading = top.hits[0];
  if (!leading) throw new Error("no judgment in the index");
  return {
    most_cited: { id: leading.id, cited_by_count: leading.cited_by_count ?? 0 },
    cited_by_ms: await timeGets(base, `/api/documents/${leading.id}/cited-by`, requests),
    provision_page_ms: await timeGets(base, `/api/legislation/PL/kk/279/${encodeURIComponent("§1")}`, requests),
  };
}

const appUrl = process.argv.includes("--app-url") ? arg("app-url") : null;
const requests = Number(process.argv.includes("--requests") ? arg("requests") : 200) || 200;
async function main(): Promise<void> {
  const app = appUrl ? await throughApp(appUrl.replace(/\/$/, ""), requests, process.argv.includes("--cited-id") ? arg("cited-id") : null) : undefined;
  console.log(
  JSON.stringify(
    {
      bench: "citations",
      machine: { cpus: cpus().length, loadavg_1m_at_start: Number(load.toFixed(2)) },
      judgments: n,
      judgments_per_second: Math.round(n / (ms / 1000)),
      mean_chars: Math.round(chars / n),
      per_judgment_ms: { p50: at(0.5), p95: at(0.95), max: at(1) },
      references: kinds,
      references_without_canonical_id: unidentified,
      ...(app ? { through_app: app } : {}),
    },
    null,
    2,
  ),
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
