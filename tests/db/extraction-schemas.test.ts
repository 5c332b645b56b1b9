import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

/**
 * Extraction schemas and their versions under RLS, as two users and as anon. The
 * functions are SECURITY INVOKER, so RLS alone keeps Bob from Alice's schema, through the functions and the tables.
 */
const pool = adminPool();
const alice = randomUUID();
const bob = randomUUID();
const ALICE = userClaims(alice);
const BOB = userClaims(bob);
const FIELDS = JSON.stringify([{ name: "a", type: "string", description: "", required: false }]);
const FORM = JSON.stringify({ type: "object" });

beforeAll(async () => {
  await pool.query("insert into auth.users (id, email) values ($1, $2), ($3, $4)", [alice, `alice-${alice}@example.org`, bob, `bob-${bob}@example.org`]);
});

afterAll(async () => {
  await pool.query("delete from auth.users where id = any($1::uuid[])", [[alice, bob]]);
  await pool.end();
});

const as = <T,>(claims: Record<string, unknown>, fn: (c: pg.PoolClient) => Promise<T>) => asRole(pool, "authenticated", claims, fn);

describe("extraction schemas under RLS", () => {
  it("the owner creates and edits (a version each); the other user sees and changes nothing", async () => {
    const s = await as(ALICE, async (c) => (await c.query("select * from public.create_extraction_schema('Mine', null, $1, $2)", [FIELDS, FORM])).rows[0]);
    expect(s).toMatchObject({ user_id: alice, name: "Mine", version: 1 });
    const v2 = await as(ALICE, async (c) => (await c.query("select * from public.update_extraction_schema($1, 'Mine 2', 'd', $2, $3, 'n')", [s.id, FIELDS, FORM])).rows);
    expect(v2[0]).toMatchObject({ version: 2, name: "Mine 2" });

    await as(BOB, async (c) => {
      expect((await c.query("select * from public.get_extraction_schema($1)", [s.id])).rows).toEqual([]);
      expect((await c.query("select * from public.list_extraction_schemas()")).rows).toEqual([]);
      expect((await c.query("select * from public.list_schema_versions($1)", [s.id])).rows).toEqual([]);
      expect((await c.query("select * from public.update_extraction_schema($1, 'stolen', null, $2, $3)", [s.id, FIELDS, FORM])).rows).toEqual([]);
      expect((await c.query("select public.delete_extraction_schema($1) as d", [s.id])).rows[0].d).toBe(false);
      expect((await c.query("update public.extraction_schemas set name = 'x' where id = $1", [s.id])).rowCount).toBe(0);
      // Planting a version on Alice's schema is refused by the policy's check.
      await expect(c.query("insert into public.schema_versions (schema_id, number, name, fields, json_schema) values ($1, 9, 'x', '[]', '{}')", [s.id])).rejects.toThrow(/row-level security/);
    });

    const { rows } = await pool.query("select name, version from public.extraction_schemas where id = $1", [s.id]);
    expect(rows[0]).toEqual({ name: "Mine 2", version: 2 });
    const versions = await pool.query("select number, created_by::text from public.schema_versions where schema_id = $1 order by number", [s.id]);
    expect(versions.rows).toEqual([
      { number: 1, created_by: alice },
      { number: 2, created_by: alice },
    ]);
  });

  it("versions are history: even the owner cannot rewrite or delete one directly", async () => {
    const s = await as(ALICE, async (c) => (await c.query("select * from public.create_extraction_schema('History', null, $1, $2)", [FIELDS, FORM])).rows[0]);
    await as(ALICE, async (c) => {
      await expect(c.query("update public.schema_versions set note = 'x' where schema_id = $1", [s.id])).rejects.toThrow(/permission denied/);
    });
    await as(ALICE, async (c) => {
      await expect(c.query("delete from public.schema_versions where schema_id = $1", [s.id])).rejects.toThrow(/permission denied/);
    });
  });

  it("anon can neither call the functions nor read the tables", async () => {
    await asRole(pool, "anon", {}, async (c) => {
      await expect(c.query("select * from public.list_extraction_schemas()")).rejects.toThrow(/permission denied/);
    });
    await asRole(pool, "anon", {}, async (c) => {
      await expect(c.query("select * from public.extraction_schemas")).rejects.toThrow(/permission denied/);
    });
  });
});
