/**
 * bench/citations: the citator's reference extractor (lib/citations) over the demo corpus texts, printing JSON:
 * judgments per second (target ≥ 500/s), p50/p95 per judgment, references found per kind. Judgments are generated in
 * batches (never the whole corpus in memory) and only extraction is timed. The graph rebuild (database) is timed by
 * `npm run citations:rebuild`, which prints its seconds.
 *
 * Usage: npx tsx bench/citations.ts [--n 12307]
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { extractReferences } from "../lib/citations/extract";
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

const sorted = [...perDoc].sort((a, b) => a - b);
const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3));

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
    },
    null,
    2,
  ),
);
