/**
 * bench/extraction-queue: the queue's overhead per document, printing JSON.
 * A scratch database on a real Postgres (BENCH_DATABASE_URL, default the system PG15 at 127.0.0.1:5432, database
 * bench_extraction_queue, created and migrated here) gets N judgments (the written fixtures' texts, cycled). Then:
 *   - extractor alone: rules-v1 over the N texts in-process (ms per document);
 *   - through the queue: jobs of N documents sent on pg-boss and worked by a real worker (concurrency 2), once with a
 *     no-op extractor (pure queue cost: claim, read the text, upsert the result, progress, finish) and once with rules-v1;
 *   overhead per document = (queue time with the no-op extractor) / N, p50/p95 over --jobs runs.
 * Usage: npx tsx bench/extraction-queue.ts [--n 1000] [--jobs 5]
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate } from "../server/migrate";
import { FIXTURES } from "../tests/fixtures/extraction/judgments";
import { extractRules } from "../lib/extraction/rules";
import { openBoss } from "../lib/backend/extraction-jobs/queue";
import { defaultExtractor, startExtractionWorker, type Extractor } from "../lib/backend/extraction-jobs/worker";

const arg = (name: string, d: number) => (process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || d : d);
const N = arg("n", 1000);
const JOBS = arg("jobs", 5);
const adminUrl = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = "bench_extraction_queue";
const url = process.env.BENCH_DATABASE_URL ?? adminUrl.replace(/\/[^/]*$/, `/${dbName}`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main() {
  const load = loadavg()[0];
  if (!process.env.BENCH_DATABASE_URL) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.query(`create database ${dbName}`);
    await admin.end();
  }
  await migrate(url);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const user = randomUUID();
  await pool.query("insert into auth.users (id, email) values ($1, $2)", [user, `bench-${user}@example.org`]);
  const texts = Array.from({ length: N }, (_, i) => FIXTURES[i % FIXTURES.length].text);
  const { rows } = await pool.query<{ id: string }>(
    "insert into public.judgments (full_text, jurisdiction) select t, 'UK' from unnest($1::text[]) t returning id",
    [texts],
  );
  const ids = rows.map((r) => r.id);

  // The extractor alone.
  let t0 = performance.now();
  for (const t of texts) extractRules(t);
  const extractorMsPerDoc = (performance.now() - t0) / N;

  const fields = [{ name: "case_number", type: "string", description: "", required: false }];
  const boss = await openBoss(url);
  async function runJobs(extractor: Extractor): Promise<number[]> {
    const worker = await startExtractionWorker({ databaseUrl: url, extractor, concurrency: 2, pollingIntervalSeconds: 0.5 });
    const perDoc: number[] = [];
    for (let j = 0; j < JOBS; j++) {
      const job = (
        await pool.query<{ id: string }>(
          "insert into public.extraction_jobs (user_id, schema_key, schema_name, fields, mode, total) values ($1, 'bench', 'bench', $2, 'rules', $3) returning id",
          [user, JSON.stringify(fields), N],
        )
      ).rows[0].id;
      await pool.query("insert into public.extraction_job_documents (job_id, document_id, position) select $1, d, o::int from unnest($2::uuid[]) with ordinality x(d, o)", [job, ids]);
      t0 = performance.now();
      await boss.send("extraction-job", { job_id: job }, {});
      for (;;) {
        const s = (await pool.query<{ status: string }>("select status from public.extraction_jobs where id = $1", [job])).rows[0].status;
        if (s !== "queued" && s !== "running") break;
        await new Promise((r) => setTimeout(r, 20));
      }
      perDoc.push((performance.now() - t0) / N);
    }
    await worker.stop();
    return perDoc;
  }
  const noop = await runJobs(async () => ({ status: "completed", values: { case_number: null }, model: "noop" }));
  const rules = await runJobs(defaultExtractor);
  await boss.stop({ graceful: false });
  const mem = process.memoryUsage();
  await pool.end();
  console.log(
    JSON.stringify(
      {
        bench: "extraction-queue",
        documents_per_job: N,
        jobs: JOBS,
        concurrency: 2,
        extractor_alone_ms_per_doc: r3(extractorMsPerDoc),
        queue_overhead_ms_per_doc: { p50: r3(pct(noop, 50)), p95: r3(pct(noop, 95)), target: 5 },
        with_rules_ms_per_doc: { p50: r3(pct(rules, 50)), p95: r3(pct(rules, 95)) },
        throughput_docs_per_s: { noop: Math.round(1000 / pct(noop, 50)), rules: Math.round(1000 / pct(rules, 50)) },
        // Includes the poll of the job's status every 20 ms and pg-boss's pick-up (polling every 0.5 s), spread over N.
        heap_mb: Math.round(mem.heapUsed / 2 ** 20),
        rss_mb: Math.round(mem.rss / 2 ** 20),
        load_1m_at_start: load,
        load_1m_at_end: loadavg()[0],
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

main().catch((e: Error) => {
  console.error(e);
  process.exit(1);
});
