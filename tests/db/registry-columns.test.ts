import { afterAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { adminPool } from "../helpers/stack";
import { ALL_FIELDS, BASE_COLUMN_COUNT, BASE_FIELDS, NEVER_INDEXED_COLUMNS, SENTENCE_FIELDS, byColumn, type FieldType } from "@/lib/schema";

const pool = adminPool();
afterAll(() => pool.end());

interface ColumnRow {
  column_name: string;
  data_type: string;
  udt_name: string;
}

/** information_schema spelling → registry type. */
function registryType(c: ColumnRow): FieldType | string {
  if (c.data_type === "ARRAY") return c.udt_name === "_text" ? "text[]" : `${c.udt_name}[]`;
  if (c.data_type === "timestamp with time zone") return "timestamptz";
  return c.data_type;
}

async function baseColumns(): Promise<ColumnRow[]> {
  const { rows } = await pool.query<ColumnRow>(
    `select column_name, data_type, udt_name from information_schema.columns
     where table_schema = 'public' and table_name = 'judgments' and column_name like 'base\\_%' order by ordinal_position`,
  );
  return rows;
}

/** Run fn inside a transaction that is always rolled back, so the test leaves the table as it found it. */
async function inRollback<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    return await fn(client);
  } finally {
    await client.query("rollback");
    client.release();
  }
}

/** Insert a minimal judgment with one base column set; returns the SQLSTATE of the failure or "ok". */
async function tryInsert(c: pg.PoolClient, column: string, value: unknown): Promise<string> {
  await c.query("savepoint s");
  try {
    await c.query(`insert into public.judgments (full_text, jurisdiction, ${column}) values ('t', 'PL', $1)`, [value]);
    await c.query("release savepoint s");
    return "ok";
  } catch (e) {
    await c.query("rollback to savepoint s");
    return (e as { code?: string }).code ?? "error";
  }
}

describe("judgments table ↔ field registry", () => {
  it(`has exactly ${BASE_COLUMN_COUNT} base_ columns of the spec plus 15 sentence numbers, and 51 registry base fields`, async () => {
    const cols = await baseColumns();
    expect(cols).toHaveLength(59 + 15);
    expect(BASE_FIELDS).toHaveLength(51);
    expect(SENTENCE_FIELDS).toHaveLength(15);
  });

  it("every base_ column is a registry field or a never-indexed metadata column, and types agree", async () => {
    const cols = await baseColumns();
    const names = cols.map((c) => c.column_name);
    expect([...names].sort()).toEqual([...ALL_FIELDS.map((f) => f.column), ...NEVER_INDEXED_COLUMNS].sort());
    for (const c of cols) {
      const f = byColumn(c.column_name);
      if (f) expect([c.column_name, registryType(c)]).toEqual([f.column, f.type]);
    }
  });

  it("enum CHECKs accept every registry value and reject anything else", async () => {
    await inRollback(async (c) => {
      for (const f of ALL_FIELDS.filter((x) => x.enumValues)) {
        const values = f.enumValues!.map((o) => o.value);
        const wrap = (v: string[]) => (f.type === "text[]" ? v : v[0]);
        for (const v of values) expect([f.column, v, await tryInsert(c, f.column, wrap([v]))]).toEqual([f.column, v, "ok"]);
        expect([f.column, await tryInsert(c, f.column, wrap(["not_a_value"]))]).toEqual([f.column, "23514"]);
        expect([f.column, await tryInsert(c, f.column, wrap([values[0].toUpperCase()]))]).toEqual([f.column, "23514"]);
        if (f.type === "text[]") {
          expect([f.column, await tryInsert(c, f.column, [values[0], "bogus"])]).toEqual([f.column, "23514"]);
          expect(await tryInsert(c, f.column, values)).toBe("ok");
        }
      }
    });
  });

  it("non-enum fields carry no CHECK (free values are stored as given)", async () => {
    const { rows } = await pool.query<{ conname: string }>(
      `select conname from pg_constraint where conrelid = 'public.judgments'::regclass and contype = 'c' and conname like 'base\\_%'`,
    );
    const checked = rows.map((r) => r.conname.replace(/_allowed$/, "")).sort();
    expect(checked).toEqual(ALL_FIELDS.filter((f) => f.enumValues).map((f) => f.column).sort());
  });

  it("base_search_tsv folds Polish diacritics and is weighted", async () => {
    await inRollback(async (c) => {
      const { rows } = await c.query<{ tsv: string; hit: boolean }>(
        `insert into public.judgments (full_text, jurisdiction, base_case_name, base_victim_mental_offence)
         values ('t', 'PL', 'Zabójstwo w Łodzi', 'zaburzenia lękowe')
         returning base_search_tsv::text as tsv,
           base_search_tsv @@ plainto_tsquery('simple', public.immutable_unaccent('zabojstwo lodzi')) as hit`,
      );
      expect(rows[0].hit).toBe(true);
      expect(rows[0].tsv).toContain("'zabojstwo':1A");
      // Weight D is Postgres' default and is printed without a letter.
      expect(rows[0].tsv).toMatch(/'lekowe':\d+( |$)/);
    });
  });

  it("judges_flat follows judges and updated_at moves on update", async () => {
    await inRollback(async (c) => {
      const ins = await c.query<{ id: string; judges_flat: string; updated_at: Date }>(
        `insert into public.judgments (full_text, jurisdiction, judges, created_at, updated_at)
         values ('t', 'UK', '[{"name":"Lord Justice Holroyde","role":"presiding"},{"name":"Mrs Justice Cutts"}]',
                 now() - interval '1 day', now() - interval '1 day')
         returning id, judges_flat, updated_at`,
      );
      expect(ins.rows[0].judges_flat).toBe("Lord Justice Holroyde, Mrs Justice Cutts");
      const upd = await c.query<{ updated_at: Date }>("update public.judgments set title = 'x' where id = $1 returning updated_at", [
        ins.rows[0].id,
      ]);
      expect(upd.rows[0].updated_at.getTime()).toBeGreaterThan(ins.rows[0].updated_at.getTime());
    });
  });

  // Changed on purpose (security review L13, migration 20261124000500): anon no longer reads the table at all (guests
  // read one judgment through judgment_detail; tests/db/judgments-anon.test.ts); authenticated still does.
  it("RLS: authenticated reads, anon reads nothing, only service_role writes", async () => {
    await inRollback(async (c) => {
      await c.query("insert into public.judgments (full_text, jurisdiction) values ('t', 'PL')");
      for (const role of ["anon", "authenticated"]) {
        await c.query(`set local role ${role}`);
        await c.query("savepoint w");
        if (role === "anon") {
          await expect(c.query("select count(*)::int as n from public.judgments")).rejects.toMatchObject({ code: "42501" });
          await c.query("rollback to savepoint w");
        } else {
          const { rows } = await c.query<{ n: number }>("select count(*)::int as n from public.judgments");
          expect(rows[0].n).toBeGreaterThan(0);
        }
        await expect(c.query("insert into public.judgments (full_text, jurisdiction) values ('x', 'UK')")).rejects.toMatchObject({
          code: "42501",
        });
        await c.query("rollback to savepoint w");
        await expect(c.query("update public.judgments set title = 'x'")).rejects.toMatchObject({ code: "42501" });
        await c.query("rollback to savepoint w");
        await c.query("reset role");
      }
      await c.query("set local role service_role");
      await c.query("insert into public.judgments (full_text, jurisdiction) values ('x', 'UK')");
      await c.query("reset role");
    });
  });
});
