/**
 * bench/structured: structured-search latency on a full corpus (12,307 judgments), printing JSON (p50/p95 over
 * --runs, default 25). Targets (native embedded Postgres, this machine):
 *   aggregate, 7 default fields, whole corpus          p50 ≤ 60 ms
 *   aggregate with a filter + text query               p50 ≤ 40 ms
 *   filter page (limit 20), selective filter           p50 ≤ 15 ms
 *   from-filter with 5,000 matches, end to end         ≤ 1.5 s
 *   numeric range + two enum filters, whole corpus      p50 ≤ 50 ms (1×, and 10× with BENCH_DATABASE_URL_10X)
 *   value counts of 7 fields under 3 active filters     p50 ≤ 80 ms (facet_extracted_values per field, the
 *                                                        filter applied in SQL with the field's own key left out)
 *   compare of two 2,000-judgment cohorts over 7 fields ≤ 300 ms (compareCohorts, the backend of POST
 *                                                        /api/cohorts/compare, through the gateway as the route runs
 *                                                        it: two filter cohorts, and the same two as collections;
 *                                                        its SQL alone, cohort_field_values per side, beside it)
 *   export of 5,000 rows to XLSX                        ≤ 5 s, ≤ 200 MB extra memory (lib/backend/exports through
 *                                                        the gateway, the response body read to its end)
 * Database functions are timed as an authenticated caller over one pg connection; list matches and from-filter also
 * go through the local gateway with supabase-js, as the app calls them (from-filter = the backend module the route
 * runs, creating and filling a real collection, deleted afterwards).
 *
 * Usage: BENCH_DATABASE_URL=postgres://... [BENCH_DATABASE_URL_10X=postgres://...] npx tsx bench/structured.ts [--runs 25]
 *   [--only-range] (only the range + enum figure, at 1× and 10×) [--only-export] (only the XLSX export)
 *   [--only-compare] (only the compare of two 2,000-judgment cohorts)
 * The database must hold the full corpus: `DATABASE_URL=... npm run seed` on a migrated database (for 10×:
 * `npm run seed -- --size 123070` into a second one).
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { collectionFromFilter } from "../lib/backend/collections/from-filter";
import { compareCohorts } from "../lib/backend/cohorts/compare";
import { exportExtractionRows } from "../lib/backend/exports";
import { filterFieldSpecs, isFacetable } from "../lib/schema/filter-fields";
import type { BaseSchemaFilters } from "../lib/schema/filters";
import { CompareCohortsSchema } from "../lib/schema/requests/cohorts";
import { jsonArg } from "../lib/supabase/json";
import { gatewayWithUser } from "./lib/gateway-user";
import { stats, timed } from "./lib/http-timing";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const runs = Math.max(20, Number(process.argv.includes("--runs") ? arg("runs") : 25) || 25);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT ?? 54530);
const databaseUrl10x = process.env.BENCH_DATABASE_URL_10X;
/** Only the range + enum figure (1× and, with BENCH_DATABASE_URL_10X, 10×): a quick run for the scale comparison. */
const onlyRange = process.argv.includes("--only-range");
/** Only the 5,000-row XLSX export. */
const onlyExport = process.argv.includes("--only-export");
/** Only the compare of two 2,000-judgment cohorts. */
const onlyCompare = process.argv.includes("--only-compare");
/** The three "only" flags: any of them leaves out every figure it does not name. */
const only = onlyRange || onlyExport || onlyCompare;

/** A numeric range and two enum filters (the cohort question "PL appeals by the offender, custody over N months"). */
const RANGE_AND_ENUMS = { jurisdiction: ["PL"], appellant: ["offender"], sentence_custody_months: { min: 60 } };
/** Three active filters for the value counts. */
const THREE_ACTIVE = { jurisdiction: ["PL"], appellant: ["offender"], sentence_custody_months: { min: 12 } };
/** Seven fields of the drawer's value lists: the enum and tag fields, the ones the filter above uses first. */
const FACET_FIELDS = ["court_name", "appellant", "appeal_outcome", "offender_gender", "convict_offences", "sentence_kind", "victim_type"];
const COMPARE_FIELDS = ["offender_gender", "appeal_outcome", "appellant", "did_offender_confess", "sentence_kind", "sentence_custody_months", "decision_date"];

/** An authenticated pg session on a database (RLS as for a signed-in caller). */
async function authenticatedClient(pool: pg.Pool, userId: string) {
  const client = await pool.connect();
  await client.query("select set_config('request.jwt.claims', $1, false)", [JSON.stringify({ sub: userId, role: "authenticated" })]);
  await client.query("set role authenticated");
  return client;
}

/** Wall time and memory of one export read to its end; RSS sampled every 10 ms (extra = peak − before). */
async function measureExport(run: () => Promise<Response>) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 10);
  const t = performance.now();
  const res = await run();
  const reader = res.body!.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
  }
  const ms = performance.now() - t;
  clearInterval(timer);
  const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));
  return { ms: Number(ms.toFixed(0)), bytes, rows_header: res.headers.get("x-export-rows"), extra_rss_mb: mb(peakRss - before.rss), extra_heap_mb: mb(peakHeap - before.heapUsed) };
}

async function main() {
  if (!databaseUrl) throw new Error("set BENCH_DATABASE_URL (a migrated database seeded with the full corpus)");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const { rows: counts } = await pool.query<{ total: string; completed: string }>(
    "select count(*) as total, count(*) filter (where base_extraction_status = 'completed') as completed from public.judgments",
  );

  // A user for RLS (and for the gateway path).
  const { userId, db, close } = await gatewayWithUser(databaseUrl, gatewayPort, { poolConnectionTimeoutMs: 60_000 });

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

  const facetable = new Set(filterFieldSpecs().filter(isFacetable).map((f) => f.key));
  const facetFields = FACET_FIELDS.filter((f) => facetable.has(f));
  if (facetFields.length !== 7) throw new Error(`facet fields not all facetable: ${FACET_FIELDS.filter((f) => !facetable.has(f)).join(", ")}`);

  /**
   * Two 2,000-judgment cohorts: the first 2,000 decisions of each jurisdiction (a decision-date cut, the day before
   * when ties would pass 2,000), compared over 7 fields by the backend the route runs, as filters and as collections.
   */
  async function compareFigure() {
    const cohorts: BaseSchemaFilters[] = [];
    for (const j of ["PL", "UK"]) {
      const { rows } = await q(
        `select max(decision_date)::text as d from (select decision_date from public.judgments
           where base_extraction_status = 'completed' and jurisdiction = $1 and decision_date is not null order by decision_date limit 2001) x`,
        [j],
      );
      let f: BaseSchemaFilters = { jurisdiction: [j], decision_date: { to: rows[0].d as string } };
      if ((await cohortOf(f, null)) > 2000) f = { jurisdiction: [j], decision_date: { to: (await q("select (($1::date) - 1)::text as d", [rows[0].d])).rows[0].d as string } };
      cohorts.push(f);
    }
    const sizes = [await cohortOf(cohorts[0], null), await cohortOf(cohorts[1], null)];
    // Parsed as the route parses its body.
    const asFilters = CompareCohortsSchema.parse({ a: { filters: cohorts[0] }, b: { filters: cohorts[1] }, fields: COMPARE_FIELDS });
    const collections: string[] = [];
    for (const [i, f] of cohorts.entries()) {
      const r = await collectionFromFilter(db, { name: `bench compare ${i}`, filters: f });
      collections.push(r.collections[0].collection.id);
      savedIds.push(r.collections[0].collection.id);
    }
    const asCollections = CompareCohortsSchema.parse({ a: { collection_id: collections[0] }, b: { collection_id: collections[1] }, fields: COMPARE_FIELDS });
    const check = await compareCohorts(db, asFilters);
    if (check.a.size !== sizes[0] || check.b.size !== sizes[1]) throw new Error("compare sizes differ from the cohort counts");
    // The compare's SQL alone: cohort_field_values once per side, in parallel as compareCohorts runs them.
    const sqlOnly = () =>
      Promise.all(cohorts.map(async (f) => {
        const { error } = await db.rpc("cohort_field_values", { p_filters: jsonArg(f), p_text_query: null, p_fields: COMPARE_FIELDS });
        if (error) throw error;
      }));
    return {
      target_ms: 300,
      method: "compareCohorts (the route's backend) through the gateway; sql_only = its two cohort_field_values calls",
      cohorts,
      cohort_sizes: sizes,
      fields: COMPARE_FIELDS,
      filters: stats(await timed(() => compareCohorts(db, asFilters), runs)),
      collections: stats(await timed(() => compareCohorts(db, asCollections), runs)),
      sql_only: stats(await timed(sqlOnly, runs)),
    };
  }

  const savedIds: string[] = [];
  const results = {
    corpus: { judgments: Number(counts[0].total), completed: Number(counts[0].completed) },
    runs,
    // How busy the machine was: wall figures scale with it (a count over a million generated rows takes ~50 ms on
    // an idle core of this class).
    machine: {
      cpus: cpus().length,
      loadavg_1m: Number(loadavg()[0].toFixed(2)),
      calibration_generate_series_1m: stats(await timed(() => q("select count(*) from generate_series(1, 1000000)"), 5)),
    },
    ...(only ? {} : {
    aggregate_default_fields_whole_corpus: {
      target_p50_ms: 60,
      ...(stats(await timed(() => q("select public.aggregate_extracted_data()"), runs))),
    },
    aggregate_filter_and_text_query: {
      target_p50_ms: 40,
      filters: filterWithText,
      text_query: textQuery,
      cohort: await cohortOf(filterWithText, textQuery),
      ...(stats(await timed(() => q("select public.aggregate_extracted_data($1, $2)", [filterWithText, textQuery]), runs))),
    },
    aggregate_sample_1000: {
      ...(stats(await timed(() => q("select public.aggregate_extracted_data('{}', null, null, 1000, 42)"), runs))),
    },
    filter_page_selective_limit_20: {
      target_p50_ms: 15,
      filters: selective,
      cohort: await cohortOf(selective, null),
      ...(stats(await timed(() => q("select * from public.filter_documents_by_extracted_data($1, null, 20, 0)", [selective]), runs))),
    },
    filter_page_whole_corpus_limit_20: {
      ...(stats(await timed(() => q("select * from public.filter_documents_by_extracted_data('{}', null, 20, 0)"), runs))),
    },
    list_matches_text_query: {
      text_query: textQuery,
      cohort: await cohortOf({}, textQuery),
      sql: stats(await timed(() => q("select * from public.list_extracted_filter_matches('{}', $1)", [textQuery]), runs)),
      via_gateway: stats(await timed(async () => {
        const { error } = await db.rpc("list_extracted_filter_matches", { p_filters: {}, p_text_query: textQuery });
        if (error) throw error;
      }, runs)),
    },
    }),
    ...(only && !onlyRange ? {} : { range_and_two_enums_whole_corpus: {
      target_p50_ms: 50,
      filters: RANGE_AND_ENUMS,
      cohort: await cohortOf(RANGE_AND_ENUMS, null),
      filter_page_limit_20: stats(await timed(() => q("select * from public.filter_documents_by_extracted_data($1, null, 20, 0)", [RANGE_AND_ENUMS]), runs)),
      count_only: stats(await timed(() => q("select count(*) from public.list_extracted_filter_matches($1, null)", [RANGE_AND_ENUMS]), runs)),
    } }),
    ...(only ? {} : {
    value_counts_7_fields_3_filters: {
      target_p50_ms: 80,
      method: "facet_extracted_values for each field in turn (the drawer's value lists), the active filters applied in SQL",
      filters: THREE_ACTIVE,
      fields: facetFields,
      all_seven: stats(await timed(async () => {
        for (const f of facetFields) await q("select * from public.facet_extracted_values($1, $2, null, null, 20)", [f, THREE_ACTIVE]);
      }, runs)),
    },
    }),
    ...(only && !onlyCompare ? {} : { compare_two_2000_cohorts_7_fields: await compareFigure() }),
    ...(only && !onlyExport ? {} : {
    export_5000_rows_xlsx: {
      target_ms: 5000,
      target_extra_mb: 200,
      filters: fiveK,
      matched: n5k,
      runs: await (async () => {
        const out = [];
        for (let i = 0; i < 3; i++) {
          out.push(
            await measureExport(() => exportExtractionRows(db, { filters: fiveK, format: "xlsx", headers: "labels" }, "en")),
          );
        }
        return out;
      })(),
    },
    }),
    ...(only ? {} : {
    from_filter_5000_end_to_end: {
      target_ms: 1500,
      filters: fiveK,
      matched: n5k,
      ...(stats(await timed(async () => {
        const r = await collectionFromFilter(db, { name: "bench", filters: fiveK });
        if (r.collections[0].added_count !== n5k) throw new Error("from-filter added the wrong number of judgments");
        savedIds.push(r.collections[0].collection.id);
      }, runs))),
    },
    }),
  };
  for (const id of savedIds) {
    const { error } = await db.rpc("delete_collection", { p_collection_id: id });
    if (error) throw error;
  }
  const out: Record<string, unknown> = { ...results };
  if (databaseUrl10x && (!only || onlyRange)) {
    // The same range + enum question on a 10× corpus, as its own authenticated session.
    const pool10 = new pg.Pool({ connectionString: databaseUrl10x, max: 1 });
    const c10 = await authenticatedClient(pool10, "00000000-0000-4000-8000-000000000001");
    const corpus10 = Number((await c10.query("select count(*) as n from public.judgments")).rows[0].n);
    out.range_and_two_enums_10x = {
      target_p50_ms: 50,
      corpus: corpus10,
      cohort: Number((await c10.query("select count(*) as n from public.list_extracted_filter_matches($1, null)", [RANGE_AND_ENUMS])).rows[0].n),
      filter_page_limit_20: stats(await timed(() => c10.query("select * from public.filter_documents_by_extracted_data($1, null, 20, 0)", [RANGE_AND_ENUMS]), runs)),
      count_only: stats(await timed(() => c10.query("select count(*) from public.list_extracted_filter_matches($1, null)", [RANGE_AND_ENUMS]), runs)),
    };
    await c10.query("reset role");
    c10.release();
    await pool10.end();
  }
  out.machine_at_end = { loadavg_1m: Number(loadavg()[0].toFixed(2)) };
  console.log(JSON.stringify(out, null, 2));

  await client.query("reset role");
  client.release();
  await close();
  await pool.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
