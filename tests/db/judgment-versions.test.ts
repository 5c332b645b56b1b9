/**
 * The judgment_versions trigger (ruling P-45) on real Postgres: inserts are not recorded, an update
 * records only the columns it changed (old and new), long values as length and md5, a no-op update nothing; signed-in
 * users read versions but cannot write them, anon cannot read them. Every case runs in a transaction rolled back.
 */
import { afterAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

async function inTx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("begin");
    return await fn(c);
  } finally {
    await c.query("rollback");
    c.release();
  }
}

async function insertJudgment(c: pg.PoolClient): Promise<string> {
  const { rows } = await c.query<{ id: string }>(
    "insert into public.judgments (full_text, jurisdiction, title, summary, keywords) values ($1, 'PL', 'Tytuł', 'Krótko.', '{a,b}') returning id::text",
    ["x".repeat(5000)],
  );
  return rows[0].id;
}

const versions = (c: pg.PoolClient, id: string) =>
  c.query<{ changed_columns: string[]; old_values: Record<string, unknown>; new_values: Record<string, unknown> }>(
    "select changed_columns, old_values, new_values from public.judgment_versions where judgment_id = $1 order by id",
    [id],
  );

describe("judgment_versions trigger", () => {
  it("records no insert, then each update's changed columns only", async () => {
    await inTx(async (c) => {
      const id = await insertJudgment(c);
      expect((await versions(c, id)).rows).toEqual([]);
      await c.query("update public.judgments set title = 'Nowy tytuł', keywords = '{a,c}' where id = $1", [id]);
      const { rows } = await versions(c, id);
      expect(rows).toHaveLength(1);
      // updated_at moves on every update (judgments_before_write) but is bookkeeping, not a version.
      expect([...rows[0].changed_columns].sort()).toEqual(["keywords", "title"]);
      expect(rows[0].old_values).toEqual({ title: "Tytuł", keywords: ["a", "b"] });
      expect(rows[0].new_values).toEqual({ title: "Nowy tytuł", keywords: ["a", "c"] });
    });
  });

  it("keeps long values as length and md5, never the text; a no-op update records nothing", async () => {
    await inTx(async (c) => {
      const id = await insertJudgment(c);
      await c.query("update public.judgments set full_text = $2 where id = $1", [id, "y".repeat(6000)]);
      await c.query("update public.judgments set title = title where id = $1", [id]);
      const { rows } = await versions(c, id);
      expect(rows).toHaveLength(1);
      expect(rows[0].changed_columns).toEqual(["full_text"]);
      const md5 = (await c.query<{ a: string; b: string }>("select md5(to_jsonb($1::text)::text) a, md5(to_jsonb($2::text)::text) b", ["x".repeat(5000), "y".repeat(6000)])).rows[0];
      expect(rows[0].old_values).toEqual({ full_text: { length: 5000, md5: md5.a } });
      expect(rows[0].new_values).toEqual({ full_text: { length: 6000, md5: md5.b } });
    });
  });

  it("a bulk update writes one small row per changed judgment", async () => {
    await inTx(async (c) => {
      const ids = [await insertJudgment(c), await insertJudgment(c), await insertJudgment(c)];
      await c.query("update public.judgments set outcome = 'dismissed' where id = any($1::uuid[])", [ids]);
      const { rows } = await c.query<{ n: string }>("select count(*) n from public.judgment_versions where judgment_id = any($1::uuid[])", [ids]);
      expect(Number(rows[0].n)).toBe(3);
    });
  });

  it("signed-in users read versions through the RPC but cannot write them; anon cannot read", async () => {
    await inTx(async (c) => {
      const id = await insertJudgment(c);
      await c.query("update public.judgments set title = 'Zmiana' where id = $1", [id]);
      await c.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: "22222222-2222-4222-8222-222222222222", role: "authenticated" })]);
      await c.query("set local role authenticated");
      const list = await c.query<{ v: { changed_columns: string[] }[] | null }>("select public.judgment_versions_list($1::uuid, 10, null) v", [id]);
      expect(list.rows[0].v?.map((x) => x.changed_columns)).toEqual([["title"]]);
      const none = await c.query<{ v: unknown }>("select public.judgment_versions_list('00000000-0000-4000-8000-000000000000'::uuid, 10, null) v");
      expect(none.rows[0].v).toBeNull();
      await c.query("savepoint s");
      await expect(
        c.query("insert into public.judgment_versions (judgment_id, changed_columns, old_values, new_values) values ($1, '{x}', '{}', '{}')", [id]),
      ).rejects.toThrow(/permission denied/);
      await c.query("rollback to savepoint s");
      await c.query("set local role anon");
      await expect(c.query("select * from public.judgment_versions limit 1")).rejects.toThrow(/permission denied/);
    });
  });
});

describe("judgment_versions trigger function", () => {
  it("compares every column of judgments but updated_at and the generated ones (regenerate it after adding a column)", async () => {
    const cols = (
      await pool.query<{ name: string }>(
        `select attname::text as name from pg_attribute where attrelid = 'public.judgments'::regclass and attnum > 0
           and not attisdropped and attgenerated = '' and attname <> 'updated_at'`,
      )
    ).rows.map((r) => r.name);
    const src = (await pool.query<{ src: string }>("select prosrc as src from pg_proc where proname = 'judgments_record_version'")).rows[0].src;
    const missing = cols.filter((c) => !src.includes(`old.${c} is distinct from new.${c}`));
    // A migration that adds a column to judgments must call public.judgment_versions_define_trigger() again.
    expect(missing).toEqual([]);
  });
});
