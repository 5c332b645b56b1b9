/**
 * bench/facets: the filter popovers' faceted value lists on a full corpus, printing JSON (p50/p95 over --runs,
 * default 25). One popover = one facet_extracted_values call, counted under every other active filter with the
 * field's fixed set or selection included (as the page asks). Target (issue: measured): 7 fields under 3 active
 * filters, all seven lists, p50 ≤ 80 ms.
 *
 * Usage: BENCH_DATABASE_URL=postgres://... npx tsx bench/facets.ts [--runs 25]
 * The database must hold the full corpus: `DATABASE_URL=... npm run seed` on a migrated database.
 */
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { enumValues, byName } from "../lib/schema";
import { stats, timed, type Stats } from "./lib/http-timing";

const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
const runs = Math.max(10, Number(process.argv.includes("--runs") ? arg("runs") : 25) || 25);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;

// Seven value lists a researcher opens: free-text tags (top 20) and fixed sets (every value, 0 included).
const FIELDS = ["convict_offences", "appeal_outcome", "offender_gender", "appellant", "what_ancilliary_orders", "victim_type", "court_name"];
// Three active filters (jurisdiction, a date range, a yes/no field).
const FILTERS = { jurisdiction: ["PL"], decision_date: { from: "2012-01-01" }, did_offender_confess: true };

async function main() {
  if (!databaseUrl) throw new Error("set BENCH_DATABASE_URL (a migrated database seeded with the full corpus)");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const client = await pool.connect();
  const { rows: counts } = await client.query<{ total: string; completed: string }>(
    "select count(*) as total, count(*) filter (where base_extraction_status = 'completed') as completed from public.judgments",
  );
  const cohort = Number((await client.query("select count(*) as n from public.list_extracted_filter_matches($1, null)", [FILTERS])).rows[0].n);
  const include = (field: string) => {
    const def = byName(field);
    return def?.enumValues ? enumValues(def) : null;
  };
  const facet = (field: string) =>
    client.query("select * from public.facet_extracted_values($1, $2, null, null, 20, $3)", [field, FILTERS, include(field)]);

  const perField: Record<string, Stats> = {};
  for (const f of FIELDS) perField[f] = stats(await timed(() => facet(f), runs));
  const results = {
    corpus: { judgments: Number(counts[0].total), completed: Number(counts[0].completed) },
    runs,
    machine: { cpus: cpus().length, loadavg_1m: Number(loadavg()[0].toFixed(2)) },
    filters: FILTERS,
    cohort,
    seven_lists_under_three_filters: {
      target_p50_ms: 80,
      fields: FIELDS,
      ...(stats(await timed(async () => {
        for (const f of FIELDS) await facet(f);
      }, runs))),
    },
    per_field: perField,
  };
  console.log(JSON.stringify(results, null, 2));
  client.release();
  await pool.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
