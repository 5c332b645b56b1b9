/**
 * bench/structured: structured-search latency on a full corpus (12,307 judgments), printing JSON (p50/p95 over
 * --runs, default 25). Targets (native embedded Postgres, this machine):
 *   aggregate, 7 default fields, whole corpus          p50 ≤ 60 ms
 *   aggregate with a filter + text query               p50 ≤ 40 ms
 *   filter page (limit 20), selective filter           p50 ≤ 15 ms
 *   from-filter with 5,000 matches, end to end         ≤ 1.5 s
 * Database functions are timed as an authenticated caller over one pg connection; list matches and from-filter also
 * go through the local gateway with supabase-js, as the app calls them (from-filter = the backend module the route
 * runs, creating and filling a real collection, deleted afterwards).
 *
 * Usage: BENCH_DATABASE_URL=postgres://... npx tsx bench/structured.ts [--runs 25]
 * The database must hold the full corpus: `DATABASE_URL=... npm run seed` on a migrated database.
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { collectionFromFilter } from "../lib/backend/collections/from-filter";
import { gatewayWithUser } from "./lib/gateway-user";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const runs = Math.max(20, Number(process.argv.includes("--runs") ? arg("runs") : 25) || 25);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT ?? 54530);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2));
  return { n: s.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Number(s[s.length - 1].toFixed(2)) };
}

async function timed(n: number, fn: () => Promise<unknown>) {
  await fn(); // warm-up: plan caches, buffers
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
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

  // A user for RLS (and for the gateway path).
  const { userId, db, close } = await gatewayWithUser(databaseUrl, gatewayPort);

  const client = await pool.connect();
  await client.query("select set_config('request.jwt.claims', $1, false)", [JSON.stringify({ sub: userId, role: "authenticated" })]);
  await client.query("set role authenticated");
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);

  // A decision-date cut that keeps the cohort at most 5,000 judgments (the default cap), as close to it as possible.
  const { rows: cut } = await q(
    `select max(decision_date)::text as d from (
       select decision_date from public.judgments where base_extraction_status = 'completed' and decision_date is not null
       order by decision_date limit 5001) x`,
  );
  let fiveK = { decision_date: { to: cut[0].d as string } };
  let n5k = Number((await q("select count(*) as n from public.list_extracted_filter_matches($1, null)", [fiveK])).rows[0].n);
  if (n5k > 5000) {
    const prev = (await q("select (($1::date) - 1)::text as d", [cut[0].d])).rows[0].d as string;
    fiveK = { decision_date: { to: prev } };
    n5k = Number((await q("select count(*) as n from public.list_extracted_filter_matches($1, null)", [fiveK])).rows[0].n);
  }

  const filterWithText = { jurisdiction: ["PL"], decision_date: { from: "2010-01-01" } };
  const textQuery = "wyrok";
  const selective = { jurisdiction: ["UK"], offender_gender: ["gender_female"], did_offender_confess: true };
  const cohortOf = async (filters: unknown, text: string | null) =>
    Number((await q("select count(*) as n from public.list_extracted_filter_matches($1, $2)", [filters, text])).rows[0].n);

  const savedIds: string[] = [];
  const results = {
    corpus: { judgments: Number(counts[0].total), completed: Number(counts[0].completed) },
    runs,
    // How busy the machine was: wall figures scale with it (a count over a million generated rows takes ~50 ms on
    // an idle core of this class).
    machine: {
      cpus: cpus().length,
      loadavg_1m: Number(loadavg()[0].toFixed(2)),
      calibration_generate_series_1m: await timed(5, () => q("select count(*) from generate_series(1, 1000000)")),
    },
    aggregate_default_fields_whole_corpus: {
      target_p50_ms: 60,
      ...(await timed(runs, () => q("select public.aggregate_extracted_data()"))),
    },
    aggregate_filter_and_text_query: {
      target_p50_ms: 40,
      filters: filterWithText,
      text_query: textQuery,
      cohort: await cohortOf(filterWithText, textQuery),
      ...(await timed(runs, () => q("select public.aggregate_extracted_data($1, $2)", [filterWithText, textQuery]))),
    },
    aggregate_sample_1000: {
      ...(await timed(runs, () => q("select public.aggregate_extracted_data('{}', null, null, 1000, 42)"))),
    },
    filter_page_selective_limit_20: {
      target_p50_ms: 15,
      filters: selective,
      cohort: await cohortOf(selective, null),
      ...(await timed(runs, () => q("select * from public.filter_documents_by_extracted_data($1, null, 20, 0)", [selective]))),
    },
    filter_page_whole_corpus_limit_20: {
      ...(await timed(runs, () => q("select * from public.filter_documents_by_extracted_data('{}', null, 20, 0)"))),
    },
    list_matches_text_query: {
      text_query: textQuery,
      cohort: await cohortOf({}, textQuery),
      sql: await timed(runs, () => q("select * from public.list_extracted_filter_matches('{}', $1)", [textQuery])),
      via_gateway: await timed(runs, async () => {
        const { error } = await db.rpc("list_extracted_filter_matches", { p_filters: {}, p_text_query: textQuery });
        if (error) throw error;
      }),
    },
    from_filter_5000_end_to_end: {
      target_ms: 1500,
      filters: fiveK,
      matched: n5k,
      ...(await timed(runs, async () => {
        const r = await collectionFromFilter(db, { name: "bench", filters: fiveK });
        if (r.collections[0].added_count !== n5k) throw new Error("from-filter added the wrong number of judgments");
        savedIds.push(r.collections[0].collection.id);
      })),
    },
  };
  for (const id of savedIds) {
    const { error } = await db.rpc("delete_collection", { p_collection_id: id });
    if (error) throw error;
  }
  console.log(JSON.stringify(results, null, 2));

  await client.query("reset role");
  client.release();
  await close();
  await pool.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
