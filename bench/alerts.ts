/**
 * bench/alerts: the e-mail digest job (lib/backend/alerts/digest.ts) for --users users (default 1,000) × 3 alerted
 * saved searches each (two "extractions" searches over the SQL predicate, one "search" over the LanceDB engine), with
 * --new new judgments (default 200) added after the alerts' watermarks, sending every digest over real SMTP to the
 * mail catcher (server/launcher/mail-catcher.ts, storing each message in Postgres). Prints one JSON object: the run's wall time,
 * peak RSS of this process, mails sent, judgments listed, and the corpus it ran on. Target: ≤ 60 s.
 *
 * Needs a migrated database holding a corpus (`--database-url`, default DATABASE_URL or .env.local): the bench adds
 * its users, saved searches and judgments, and removes them at the end. The engine index is built into a temporary
 * folder from the database first (not timed) when --engine is given.
 *
 * Usage: npx tsx bench/alerts.ts [--database-url postgres://…] [--users 1000] [--new 200] [--engine]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parse } from "dotenv";
import pg from "pg";
import { runDigest } from "../lib/backend/alerts/digest";
import { closeMail, sendMail } from "../lib/backend/mail";
import { LocalHashEmbedder } from "../lib/search/embedders/local-hash";
import { LanceDbEngine } from "../lib/search/lancedb/engine";
import { fullSync } from "../lib/search/sync";
import { startMailCatcher } from "../server/launcher/mail-catcher";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "../supabase/seed/generate";

const arg = (name: string, fallback: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : fallback);
const envFile = path.join(process.cwd(), ".env.local");
const fileEnv = existsSync(envFile) ? parse(readFileSync(envFile, "utf8")) : {};
const databaseUrl = arg("database-url", process.env.DATABASE_URL ?? fileEnv.DATABASE_URL ?? "");
const USERS = Number(arg("users", "1000"));
const NEW = Number(arg("new", "200"));
/** With --engine the third search of each user is a "search" alert over a LanceDB index built first (slow on a busy
 * machine: a full index of the corpus); without it, a third "extractions" alert with a text query. */
const WITH_ENGINE = process.argv.includes("--engine");
const mb = (b: number) => Math.round(b / 1024 / 1024);

async function main() {
  if (!databaseUrl) throw new Error("pass --database-url or set DATABASE_URL");
  // As lib/backend/alerts/run.ts: one connection per user served at once (ALERT_DIGEST_CONCURRENCY, default 4) plus the run lock's.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 5 });
  const corpus = Number((await pool.query("select count(*) from public.judgments")).rows[0].count);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-alerts-"));
  const embedder = new LocalHashEmbedder();
  const engine = new LanceDbEngine({ dir, embedder });
  const catcher = await startMailCatcher({ databaseUrl, port: 0 });
  const tag = `bench-alerts-${Date.now()}`;
  // New judgments: generated rows far past any corpus index, inserted after the watermarks (created_at now).
  const fresh = Array.from({ length: NEW }, (_, i) => generateJudgment(DEFAULT_CORPUS_SEED, 5_000_000 + i));
  try {
    const t0 = performance.now();
    await pool.query(
      `insert into auth.users (id, email, aud, role, email_confirmed_at)
       select gen_random_uuid(), $1 || '-' || g || '@bench.invalid', 'authenticated', 'authenticated', now() from generate_series(1, $2) g`,
      [tag, USERS],
    );
    const filters = [{ jurisdiction: ["UK"] }, { jurisdiction: ["PL"] }, {}];
    await pool.query(
      `insert into public.saved_searches (user_id, name, kind, query, params, alert_enabled, alert_frequency, last_digest_at)
       select u.id, k.name, k.kind, k.query, k.params::jsonb, true, 'daily', now() - interval '1 minute'
         from auth.users u,
              (values ('UK cohort', 'extractions', '', $2::text),
                      ('PL cohort', 'extractions', '', $3::text),
                      ('Robbery', $4::text, 'robbery', $5::text)) as k(name, kind, query, params)
        where u.email like $1 || '-%'`,
      [tag, JSON.stringify({ f: filters[0] }), JSON.stringify({ f: filters[1] }), WITH_ENGINE ? "search" : "extractions", WITH_ENGINE ? '{"filter":"","mode":"text"}' : "{}"],
    );
    await pool.query("delete from public.judgments where id = any($1::uuid[])", [fresh.map((r) => r.id)]);
    const cols = Object.keys(fresh[0]).filter((k) => /^[a-z_][a-z0-9_]*$/.test(k));
    const json = JSON.stringify(fresh.map((r) => ({ ...r, created_at: new Date().toISOString() })));
    await pool.query(`insert into public.judgments (${cols.join(", ")}) select ${cols.join(", ")} from json_populate_recordset(null::public.judgments, $1::json)`, [json]);
    const setupMs = performance.now() - t0;
    const t1 = performance.now();
    if (WITH_ENGINE) await fullSync(pool, { engine, embedder });
    const indexMs = performance.now() - t1;

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const start = performance.now();
    const report = await runDigest({
      pool,
      engine,
      send: (m) => sendMail(m, catcher.url),
      appUrl: "http://127.0.0.1:3000",
      tokenSecret: "bench-secret-bench-secret",
      frequencies: ["daily"],
      log: () => undefined,
    });
    const digestMs = performance.now() - start;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const mine = report.details.filter((d) => d.email.startsWith(tag));
    console.log(
      JSON.stringify(
        {
          bench: "alerts",
          corpus_judgments: corpus,
          new_judgments: NEW,
          users: USERS,
          alerted_searches: USERS * 3,
          kinds: WITH_ENGINE ? "2 extractions + 1 search (engine) per user" : "3 extractions per user (SQL predicate; one with a text query)",
          digest_ms: Math.round(digestMs),
          per_user_ms: Number((digestMs / USERS).toFixed(2)),
          mails_sent: mine.filter((d) => d.status === "sent").length,
          mails_failed: mine.filter((d) => d.status === "failed").length,
          judgments_listed: mine.reduce((n, d) => n + d.judgments, 0),
          peak_rss_mb: mb(peak),
          setup_ms: Math.round(setupMs),
          index_build_ms: Math.round(indexMs),
          target_ms: 60_000,
          machine: { cpus: cpus().length, loadavg_1m: Number(loadavg()[0].toFixed(2)) },
        },
        null,
        2,
      ),
    );
  } finally {
    // Everything the bench added goes (users cascade to their saved searches and deliveries).
    await pool.query("delete from public.mail_messages where rcpt_to[1] like $1 || '-%'", [tag]);
    await pool.query("delete from auth.users where email like $1 || '-%'", [tag]);
    await pool.query("delete from public.judgments where id = any($1::uuid[])", [fresh.map((r) => r.id)]);
    closeMail();
    await catcher.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
    await pool.end();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
