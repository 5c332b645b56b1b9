/**
 * bench/extraction: the rules extractor (rules-v1) over the demo corpus, printing JSON.
 *   throughput: judgments per second through extractRules (target ≥ 200/s on this machine), p50/p95 per judgment,
 *               characters per second, heap after the run;
 *   accuracy:   precision and recall per field and jurisdiction against the generator's known values
 *               (bench/lib/extraction-truth.ts), and against the written fixtures (tests/fixtures/extraction).
 * Judgments are generated in batches (never the whole corpus in memory) and only extraction is timed.
 *
 * Usage: npx tsx bench/extraction.ts [--n 12307]
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { extractRules, type RulesResult } from "../lib/extraction/rules";
import { DEFAULT_CORPUS_SIZE } from "../supabase/seed/generate";
import { comparable, score, strip, truthCase, type TruthCase } from "./lib/extraction-truth";
import { FIXTURES } from "../tests/fixtures/extraction/judgments";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const n = Math.max(1, Number(process.argv.includes("--n") ? arg("n") : DEFAULT_CORPUS_SIZE) || DEFAULT_CORPUS_SIZE);
const BATCH = 500;

const perDoc: number[] = [];
let chars = 0;
let extractMs = 0;
const cases: Parameters<typeof score>[0] = [];
const load = loadavg()[0];

for (let from = 0; from < n; from += BATCH) {
  const batch: TruthCase[] = [];
  for (let i = from; i < Math.min(n, from + BATCH); i++) batch.push(truthCase(i));
  const results: RulesResult[] = [];
  for (const t of batch) {
    const t0 = performance.now();
    results.push(extractRules(t.fullText));
    const dt = performance.now() - t0;
    perDoc.push(dt);
    extractMs += dt;
    chars += t.fullText.length;
  }
  batch.forEach((t, k) => cases.push({ jurisdiction: t.jurisdiction, truth: t.truth, got: comparable(results[k]) }));
}

const sorted = [...perDoc].sort((a, b) => a - b);
const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3));

const fixtureCases = FIXTURES.map((f) => {
  const got = extractRules(f.text);
  // In the truth's terms, as comparable() puts the extractor's answer: judges by name, representatives without titles.
  const truth = Object.fromEntries(
    Object.entries(f.truth).map(([k, v]) => [
      k,
      k === "judges" ? (v as { name: string }[]).map((j) => j.name) : typeof v === "string" && k.endsWith("_representative") ? strip(v) : v,
    ]),
  );
  return { jurisdiction: f.id.startsWith("pl-") ? "PL" : "UK", truth, got: { ...comparable(got), hearing_date: got.hearing_date } };
});

console.log(
  JSON.stringify(
    {
      bench: "extraction",
      model: "rules-v1",
      machine: { cpus: cpus().length, loadavg_1m_at_start: Number(load.toFixed(2)) },
      throughput: {
        judgments: n,
        judgments_per_second: Math.round(n / (extractMs / 1000)),
        mean_chars: Math.round(chars / n),
        chars_per_second: Math.round(chars / (extractMs / 1000)),
        per_judgment_ms: { p50: at(0.5), p95: at(0.95), max: at(1) },
        heap_used_mb: Math.round(process.memoryUsage().heapUsed / 1e6),
      },
      accuracy_corpus: score(cases),
      accuracy_fixtures: score(fixtureCases),
    },
    null,
    2,
  ),
);
