/**
 * bench/judges: judge fingerprint and reasoning-line discovery on a full corpus (targets: judge profile
 * p50 ≤ 200 ms; discover with 500 judgments ≤ 3 s), printing one JSON object. The backend functions the routes run
 * are called as a signed-in user through the local gateway with supabase-js, as the app calls them (no HTTP layer of
 * the app itself): judgeProfile (judge_record_phrases: the stored per-judgment phrase counts; judge_style_baseline:
 * the court level's sums the styles are measured against; the aggregate), and
 * discoverLines
 * (cohort, seeded sample, the engine's embedding text through the default local-hash embedder, k-means, TF-IDF
 * labels, edges). Judges profiled: the one with the most judgments (the worst case) and the planted judge.
 *
 * Cold and warm are separate figures: `cold_ms` is one profile after the judge's stored counts were deleted (the
 * first profile on a stack whose filler, P-54, has not reached the judge yet: every text scanned and stored, as the
 * route does with its service client); the p50/p95 are the warm profiles that follow (stored counts only). Deleting
 * the counts only costs a later profile a recount. Peak memory is the process's maxRSS (getrusage), not a snapshot.
 *
 * Usage: BENCH_DATABASE_URL=postgres://... npx tsx bench/judges.ts [--runs 15]
 * The database must hold the full corpus: `DATABASE_URL=... npm run seed` on a migrated database.
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { judgeProfile } from "../lib/backend/analysis/judges";
import { discoverLines } from "../lib/backend/analysis/reasoning-lines";
import { LocalHashEmbedder } from "../lib/search/embedders/local-hash";
import { gatewayWithUser } from "./lib/gateway-user";
import { PLANTED_JUDGE } from "../supabase/seed/planted-lines";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const runs = Math.max(5, Number(process.argv.includes("--runs") ? arg("runs") : 15) || 15);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT ?? 54533);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1));
  return { n: s.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Number(s[s.length - 1].toFixed(1)) };
}

async function timed(n: number, fn: (i: number) => Promise<unknown>) {
  await fn(-1); // warm-up: plan caches, buffers, the regex compile
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return stats(out);
}

async function main() {
  if (!databaseUrl) throw new Error("set BENCH_DATABASE_URL (a migrated database seeded with the full corpus)");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const { rows: counts } = await pool.query<{ total: string; completed: string }>(
    "select count(*) as total, count(*) filter (where base_extraction_status = 'completed') as completed from public.judgments",
  );
  const { rows: top } = await pool.query<{ name: string; n: string }>(
    "select e ->> 'name' as name, count(*) as n from public.judgments j, jsonb_array_elements(j.judges) e group by 1 order by 2 desc, 1 limit 1",
  );

  const { db, service, close } = await gatewayWithUser(databaseUrl, gatewayPort);
  const embedder = new LocalHashEmbedder();

  try {
    const cold = async (name: string) => {
      await pool.query(
        `delete from public.judgment_reasoning_phrases p using public.judgments j
          where p.judgment_id = j.id and public.judge_name_keys(j.judges) @> array[public.immutable_unaccent(lower(btrim($1)))]`,
        [name],
      );
      const t = performance.now();
      const profile = await judgeProfile(db, name, service);
      return { profile, cold_ms: Number((performance.now() - t).toFixed(1)) };
    };
    // One untimed profile first, so the cold figure is the missing counts, not the process's first query and compile.
    await judgeProfile(db, PLANTED_JUDGE.name, service).catch(() => null);
    const heaviestCold = await cold(top[0].name);
    const heaviest = heaviestCold.profile;
    const plantedCold = await cold(PLANTED_JUDGE.name).catch(() => null);
    let lastDiscover: Awaited<ReturnType<typeof discoverLines>> | null = null;
    const results = {
      corpus: { judgments: Number(counts[0].total), completed: Number(counts[0].completed) },
      runs,
      machine: { cpus: cpus().length, loadavg_1m: Number(loadavg()[0].toFixed(2)) },
      judge_profile_heaviest: {
        target_p50_ms: 200,
        judge: heaviest.name,
        judgments: heaviest.judgments,
        scored_texts: heaviest.scored_judgments,
        cold_ms: heaviestCold.cold_ms,
        warm: await timed(runs, () => judgeProfile(db, top[0].name, service)),
      },
      judge_profile_planted: plantedCold
        ? {
            target_p50_ms: 200,
            judge: plantedCold.profile.name,
            judgments: plantedCold.profile.judgments,
            // What the profile is measured against, and how far her planted style stands from it.
            baseline: {
              court_level: plantedCold.profile.baseline.court_level,
              judgments: plantedCold.profile.baseline.judgments,
              pending: plantedCold.profile.baseline.pending,
            },
            teleological_z: plantedCold.profile.styles.teleological.z,
            cold_ms: plantedCold.cold_ms,
            warm: await timed(runs, () => judgeProfile(db, PLANTED_JUDGE.name, service)),
          }
        : { skipped: "the planted judge is not in this corpus" },
      discover_500: {
        target_ms: 3000,
        sample_size: 500,
        num_clusters: 8,
        // Each run draws another sample (seed 42 + run).
        ...(await timed(Math.max(3, Math.floor(runs / 3)), async (i) => {
          lastDiscover = await discoverLines(db, embedder, { filters: {}, sample_size: 500, num_clusters: 8, seed: 42 + Math.max(0, i) });
        })),
      },
      discover_cohort: (lastDiscover as Awaited<ReturnType<typeof discoverLines>> | null)?.corpus_size ?? null,
      // maxRSS is in kilobytes: the process's high-water mark over everything above, cold profiles included.
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await close();
    await pool.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
