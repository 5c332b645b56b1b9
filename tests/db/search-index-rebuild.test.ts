/**
 * `npm run seed -- --reset --size 123070` then `npm start` must not serve the old index. The
 * launcher (ensureSearchIndex) rebuilds when public.judgments was truncated after the index's last full build (the
 * truncation is logged by a statement trigger, migration 20261127060000) or when the index and the table are more
 * than 1 % apart; the rule itself is unit-tested in tests/unit/search-index-rebuild.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { ensureSearchIndex, fullSync, incrementalSync, indexRebuildReason, readIndexState } from "@/lib/search/sync";
import { adminPool, stackEnv } from "../helpers/stack";

let pool: pg.Pool;

beforeAll(() => {
  pool = adminPool();
});

afterAll(async () => {
  await pool.end();
});

const count = async (db: Pick<pg.Pool, "query">) => Number((await db.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);

describe("a TRUNCATE of public.judgments (seed --reset)", () => {
  it("is logged, an index built before it is rebuilt, and the incremental sync does a full build instead", async () => {
    const client = await pool.connect();
    try {
      // Everything below is rolled back: the shared test corpus is untouched (the lock is held for a few seconds).
      await client.query("begin");
      await client.query("set local lock_timeout = '20s'");
      // The index's last full build, a minute before the "reseed".
      await client.query(
        "insert into public.search_sync_runs (kind, engine, started_at, completed_at, documents) values ('full', 'lancedb', now() - interval '1 minute', now() - interval '30 seconds', 5)",
      );
      const before = await readIndexState(client, "lancedb", { documents: await count(client), embedderRegistered: true });
      expect(indexRebuildReason(before)).toBeNull();

      // The reseed: keep five rows aside, truncate as the seed CLI does, put them back (a table of the same size).
      const cols = (
        await client.query<{ cols: string }>(
          `select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as cols from information_schema.columns
            where table_schema = 'public' and table_name = 'judgments' and is_generated = 'NEVER'`,
        )
      ).rows[0].cols;
      await client.query(`create temp table kept on commit drop as select ${cols} from public.judgments order by id limit 5`);
      await client.query("truncate public.judgments cascade");
      await client.query(`insert into public.judgments (${cols}) select ${cols} from kept`);

      const after = await readIndexState(client, "lancedb", { documents: 5, embedderRegistered: true });
      expect(after.judgments).toBe(5);
      expect(after.lastTruncatedAt).not.toBeNull();
      expect(after.lastFullSyncAt).not.toBeNull();
      expect(after.lastTruncatedAt!.getTime()).toBeGreaterThan(after.lastFullSyncAt!.getTime());
      expect(indexRebuildReason(after)).toMatch(/seed --reset/);

      // The scheduled incremental sync cannot follow a truncation either: it does a full build instead.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-truncated-"));
      const engine = new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
      try {
        const run = await incrementalSync(client as unknown as pg.Pool, { engine, embedder: new LocalHashEmbedder() });
        expect(run.kind).toBe("full");
        expect(run.documents).toBe(5);
        expect((await engine.health()).documents).toBe(5);
      } finally {
        await engine.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await client.query("rollback").catch(() => undefined);
      client.release();
    }
  });
});

describe("ensureSearchIndex and an index that drifted from the table", () => {
  let dir: string;
  let engine: LanceDbEngine;
  const embedder = new LocalHashEmbedder();

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-rebuild-"));
    engine = new LanceDbEngine({ dir, embedder });
  });

  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves an index within 1 % of the table and rebuilds one further apart", async () => {
    const judgments = await count(pool);
    expect(judgments).toBeGreaterThan(200);
    await fullSync(pool, { engine, embedder });
    expect((await engine.health()).documents).toBe(judgments);
    expect((await ensureSearchIndex(stackEnv().databaseUrl, { engine, embedder })).built).toBe(false);

    const ids = (await pool.query<{ id: string }>("select id::text as id from public.judgments order by id limit $1", [Math.floor(judgments * 0.01) + 1])).rows.map((r) => r.id);
    // Within the tolerance: one judgment missing is left to the incremental sync.
    await engine.sync.delete(ids.slice(0, 1));
    expect((await engine.health()).documents).toBe(judgments - 1);
    expect((await ensureSearchIndex(stackEnv().databaseUrl, { engine, embedder })).built).toBe(false);

    // More than 1 % missing: rebuilt from Postgres at start.
    await engine.sync.delete(ids);
    expect((await engine.health()).documents).toBe(judgments - ids.length);
    const r = await ensureSearchIndex(stackEnv().databaseUrl, { engine, embedder });
    expect(r.built).toBe(true);
    expect(r.reason).toMatch(/more than 1 % apart/);
    expect(r.result?.documents).toBe(judgments);
    expect((await engine.health()).documents).toBe(judgments);
    // Two full builds of the fixture index (see search-recovery.test.ts for the time on a loaded machine).
  }, 120_000);
});
