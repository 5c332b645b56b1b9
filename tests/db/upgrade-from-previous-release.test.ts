import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations, migrate, migrationsDir } from "@/server/migrate";
import { seedBlogPosts } from "@/supabase/seed/blog";
import { generateJudgment } from "@/supabase/seed/generate";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * The database migration policy (docs/releasing.md): migrations are forward-only, and every migration since the last
 * release applies to a database holding that release's schema and data without losing any of it. A fresh database
 * gets the previous release's migrations (tests/fixtures/releases/previous-release-migrations.txt, written by
 * scripts/release.ts), the demo data of that schema (a slice of the seed corpus, the blog's posts, a user with a
 * collection and a saved search); every row of every table is fingerprinted; then the project's migration command
 * applies the rest, exactly as on a deployed database, and every row is looked for again.
 */
const fixture = readFileSync(path.join(__dirname, "../fixtures/releases/previous-release-migrations.txt"), "utf8");
const previous = fixture.split("\n").filter((l) => l.endsWith(".sql"));
const release = /^release: (.+)$/m.exec(fixture)?.[1] ?? "unknown";
/** Bookkeeping, not data: the migration ledger and pg-boss's own schema (the worker makes it, not a migration). */
const SKIPPED_SCHEMAS = ["pg_catalog", "information_schema", "pg_toast", "supabase_migrations", "pgboss"];
const SEED = 515_151;
const JUDGMENTS = 40;

const admin = adminPool();
const dbName = `upgrade_${randomBytes(4).toString("hex")}`;
let url: string;
let db: pg.Client;

interface TableSnapshot {
  columns: string[];
  count: number;
  /** md5 of each row's projection on `columns`, sorted. */
  rows: string[];
  /** The first rows in full (projection, ordered by its text), for a readable failure. */
  sample: unknown[];
}

const ident = (s: string) => pg.escapeIdentifier(s);

async function tables(): Promise<string[]> {
  const { rows } = await db.query<{ t: string }>(
    `select format('%I.%I', table_schema, table_name) as t from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema <> all ($1) order by 1`,
    [SKIPPED_SCHEMAS],
  );
  return rows.map((r) => r.t);
}

async function columnsOf(table: string): Promise<string[]> {
  const { rows } = await db.query<{ c: string }>(
    `select attname as c from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [table],
  );
  return rows.map((r) => r.c);
}

async function snapshot(table: string, columns: string[]): Promise<TableSnapshot> {
  const projection = `(select ${columns.map(ident).join(", ")} from ${table}) r`;
  const { rows } = await db.query<{ h: string }>(`select md5(to_jsonb(r)::text) as h from ${projection} order by 1`);
  const { rows: sample } = await db.query<{ j: unknown }>(`select to_jsonb(r) as j from ${projection} order by to_jsonb(r)::text limit 5`);
  return { columns, count: rows.length, rows: rows.map((r) => r.h), sample: sample.map((s) => s.j) };
}

/** Apply the named migrations in order and record them as server/migrate.ts does, so `migrate()` skips them later. */
async function applyPrevious(): Promise<void> {
  await db.query(
    "create schema if not exists supabase_migrations; create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, statements text[], applied_at timestamptz default now())",
  );
  for (const file of previous) {
    const version = file.split("_")[0];
    await db.query("begin");
    await db.query(readFileSync(path.join(migrationsDir, file), "utf8"));
    await db.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [version, file.slice(version.length + 1, -4)]);
    await db.query("commit");
  }
}

/** Demo data written against the previous schema: only the columns it has. */
async function seedPreviousData(): Promise<void> {
  const judgmentColumns = new Set(await columnsOf("public.judgments"));
  const rows = Array.from({ length: JUDGMENTS }, (_, i) => generateJudgment(SEED, i));
  const cols = Object.keys(rows[0]).filter((c) => judgmentColumns.has(c));
  const list = cols.map(ident).join(", ");
  await db.query(`insert into public.judgments (${list}) select ${list} from json_populate_recordset(null::public.judgments, $1::json)`, [
    JSON.stringify(rows),
  ]);
  await seedBlogPosts(url);
  await seedUserData();
}

/**
 * What users leave behind, as the previous release stored it: two accounts (one confirmed), a collection with
 * documents, saved searches (one with an alert), an API key, a chat, search analytics, product events, a contact
 * message and API feedback.
 */
async function seedUserData(): Promise<void> {
  const ids = (await db.query<{ id: string }>("select id from public.judgments order by source_id limit 3")).rows.map((r) => r.id);
  const users = await db.query<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ('upgrade-a@example.org', 'x', now(), '{"display_name":"A"}'), ('upgrade-b@example.org', 'x', null, '{}')
     returning id`,
  );
  const [a, b] = users.rows.map((r) => r.id);
  const { rows: coll } = await db.query<{ id: string }>("insert into public.collections (user_id, name) values ($1, 'appeals to read') returning id", [a]);
  for (const j of ids) await db.query("insert into public.collection_documents (collection_id, judgment_id) values ($1, $2)", [coll[0].id, j]);
  await db.query(
    `insert into public.saved_searches (user_id, name, kind, alert_enabled) values ($1, 'fraud appeals', 'search', true), ($2, 'drafts', 'search', false)`,
    [a, b],
  );
  await db.query("insert into public.api_keys (user_id, name, prefix, key_hash) values ($1, 'script', $2, encode(sha256('k'::bytea), 'hex'))", [a, "0123456789ab"]);
  const { rows: thread } = await db.query<{ id: string }>("insert into public.chat_threads (user_id, title) values ($1, 'sentencing') returning id", [a]);
  await db.query(
    "insert into public.chat_messages (thread_id, user_id, role, content) values ($1, $2, 'user', 'What changed?'), ($1, $2, 'assistant', 'Nothing was lost.')",
    [thread[0].id, a],
  );
  await db.query(
    "insert into public.search_analytics (user_id, query, hit_count, latency_ms, mode) values ($1, 'kradzież', 12, 30, 'hybrid'), (null, 'appeal', 3, 20, 'text')",
    [a],
  );
  await db.query("insert into public.app_events (name, properties) values ('search_performed', '{\"mode\":\"text\"}'), ('document_opened', '{}')");
  await db.query("insert into public.contact_messages (name, email, message) values ('Ann', 'ann@example.org', 'Hello, is the archive of 2025 complete?')");
  await db.query("insert into public.api_feedback (user_id, type, rating) values ($1, 'search', 4)", [a]);
}

const before = new Map<string, TableSnapshot>();
/** Tables holding reference data the migrations wrote: a later migration may change their rows, not drop them. */
const reference = new Set<string>();

beforeAll(async () => {
  await admin.query(`create database ${ident(dbName)}`);
  const u = new URL(stackEnv().databaseUrl);
  u.pathname = `/${dbName}`;
  url = u.toString();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  await applyPrevious();
  // Rows the migrations themselves wrote (registries such as structured.filter_fields) are theirs to rewrite later.
  for (const t of await tables()) {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${t}`);
    if (rows[0].n > 0) reference.add(t);
  }
  await seedPreviousData();
  for (const t of await tables()) before.set(t, await snapshot(t, await columnsOf(t)));
}, 300_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await admin.query(`drop database if exists ${ident(dbName)} with (force)`).catch(() => undefined);
  await admin.end();
});

describe(`upgrading a database from the previous release (${release})`, () => {
  it("the fixture names migrations that exist, in file-name order, and some are newer", () => {
    const all = listMigrations();
    expect(previous.length).toBeGreaterThan(0);
    for (const f of previous) expect(all, f).toContain(f);
    expect([...previous].sort()).toEqual(previous);
    expect(all.slice(0, previous.length)).toEqual(previous);
  });

  it("the previous release's database holds demo data", () => {
    console.info(`[upgrade] tables: ${[...before.keys()].join(" ")}`);
    const seeded = ["public.judgments", "public.blog_posts", "auth.users", "public.collections", "public.collection_documents", "public.saved_searches",
      "public.api_keys", "public.chat_messages", "public.search_analytics", "public.app_events", "public.contact_messages", "public.api_feedback"];
    for (const t of seeded) expect(before.get(t)?.count, t).toBeGreaterThan(0);
    const summary = [...before].filter(([, s]) => s.count > 0).map(([t, s]) => `${t}=${s.count}`);
    console.info(`[upgrade] ${release}: ${before.size} tables, with rows: ${summary.join(" ")}; reference data: ${[...reference].join(" ")}`);
    // The demo and user data went into tables of their own, so the loss check covers them.
    for (const t of seeded) expect(reference.has(t), t).toBe(false);
  });

  it("the migration command applies every newer migration and loses no row of any table", async () => {
    const result = await migrate(url);
    expect(result.skipped).toBe(previous.length);
    expect(result.applied).toEqual(listMigrations().slice(previous.length));
    console.info(`[upgrade] applied ${result.applied.length}: ${result.applied.join(" ")}`);

    const after = new Set(await tables());
    const lost: string[] = [];
    for (const [table, was] of before) {
      expect(after.has(table), `${table} is gone`).toBe(true);
      const now = await columnsOf(table);
      for (const c of was.columns) expect(now, `${table}.${c} is gone`).toContain(c);
      const is = await snapshot(table, was.columns);
      if (reference.has(table)) {
        console.info(`[upgrade] ${table} (reference data of the migrations): ${was.count} → ${is.count} rows`);
        continue;
      }
      // Every row of the previous release is still there with the same values (new rows may be added).
      expect(is.count, `${table} row count`).toBeGreaterThanOrEqual(was.count);
      const remaining = new Map<string, number>();
      for (const h of is.rows) remaining.set(h, (remaining.get(h) ?? 0) + 1);
      let missing = 0;
      for (const h of was.rows) {
        const n = remaining.get(h) ?? 0;
        if (n === 0) missing++;
        else remaining.set(h, n - 1);
      }
      if (missing) lost.push(`${table}: ${missing} of ${was.count} rows changed or gone`);
      if (is.count === was.count) expect(is.sample, `${table} sample rows`).toEqual(was.sample);
    }
    expect(lost).toEqual([]);
  }, 300_000);
});
