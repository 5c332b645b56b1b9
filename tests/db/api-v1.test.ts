import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { asRole, userClaims } from "../helpers/as-role";
import { createUser } from "../helpers/supabase";

/**
 * The api-v1 migration (20261125150000) as the API roles: feedback readable by admins only; the key table and every
 * api_v1_* / per-user key function closed to anon and authenticated; acting as the key's user applies RLS (another
 * user's collection is invisible), and a user's keys are capped at the active maximum.
 */
const pool = adminPool();
let alice: string;
let bob: string;
let aliceCollection: string;
let aliceSchema: string;
const adminClaims = (id: string) => ({ ...userClaims(id), app_metadata: { role: "admin" } });

beforeAll(async () => {
  [alice, bob] = (await Promise.all([createUser(), createUser()])).map((u) => u.id);
  aliceCollection = (await pool.query<{ id: string }>("insert into public.collections (user_id, name) values ($1, 'alice only') returning id", [alice])).rows[0].id;
  await pool.query("insert into public.api_feedback (type, rating, comment, user_id) values ('search', 4, 'db test', $1)", [alice]);
  aliceSchema = (
    await pool.query<{ id: string }>("insert into public.extraction_schemas (user_id, name, fields, json_schema) values ($1, 'alice schema', '[]', '{}') returning id", [alice])
  ).rows[0].id;
});

afterAll(() => pool.end());

describe("api_feedback: admins read it, nobody else does", () => {
  it("is invisible to anon and to a signed-in user, even its author, and visible to an admin", async () => {
    const count = (role: "anon" | "authenticated", claims: Record<string, unknown> | null) =>
      asRole(pool, role, claims, async (c) => (await c.query("select count(*)::int n from public.api_feedback where comment = 'db test'")).rows[0].n as number, { rollback: true });
    await expect(count("anon", null)).rejects.toThrow(/permission denied/);
    expect(await count("authenticated", userClaims(alice))).toBe(0);
    expect(await count("authenticated", adminClaims(bob))).toBeGreaterThanOrEqual(1);
    await expect(
      asRole(pool, "authenticated", adminClaims(bob), (c) => c.query("insert into public.api_feedback (type, rating) values ('chat', 1)"), { rollback: true }),
    ).rejects.toThrow(/permission denied/);
  });
});

describe("keys and the api_v1 functions are the server's only", () => {
  const calls = [
    "select * from public.api_keys",
    "select public.api_v1_list_collections(gen_random_uuid(), 10, 0)",
    "select public.api_v1_get_collection(gen_random_uuid(), gen_random_uuid(), 5)",
    "select public.api_v1_become_user(gen_random_uuid())",
    "select public.api_key_list_for_user(gen_random_uuid())",
    "select public.api_key_touch(gen_random_uuid())",
    "select public.api_v1_statistics(null, null, null, 5, 30)",
    "select public.api_v1_list_documents(null, null, null, null, false, 5, 0)",
    "select * from public.api_v1_list_extraction_schemas(gen_random_uuid(), 10, 0)",
  ];
  it.each(calls)("anon and authenticated are refused: %s", async (sql) => {
    for (const [role, claims] of [["anon", null], ["authenticated", userClaims(alice)]] as const) {
      await expect(asRole(pool, role, claims, (c) => c.query(sql), { rollback: true })).rejects.toThrow(/permission denied/);
    }
  });
});

describe("acting as the key's user", () => {
  it("sees the user's own collection and not another user's (RLS as that user)", async () => {
    const get = (user: string) =>
      asRole(pool, "service_role", { role: "service_role" }, async (c) => (await c.query("select public.api_v1_get_collection($1, $2, 5) r", [user, aliceCollection])).rows[0].r, { rollback: true });
    expect(await get(alice)).toMatchObject({ id: aliceCollection, name: "alice only", documents: [] });
    expect(await get(bob)).toBeNull();
  });

  it("lists the user's own extraction schemas and not another user's (api_v1_list_extraction_schemas, 20261127100000)", async () => {
    const list = (user: string) =>
      asRole(pool, "service_role", { role: "service_role" }, async (c) => (await c.query("select * from public.api_v1_list_extraction_schemas($1, 100, 0)", [user])).rows, { rollback: true });
    const mine = await list(alice);
    expect(mine).toEqual([expect.objectContaining({ id: aliceSchema, name: "alice schema", version: 1, total_count: "1" })]);
    expect(await list(bob)).toEqual([]);
  });

  it("caps a user's active keys and frees a slot on revoke or expiry", async () => {
    const user = (await createUser()).id;
    const create = (c: import("pg").PoolClient, i: number, max = 2) =>
      c.query("select public.api_key_create_for_user($1, $2, $3, $4, null, $5) id", [user, `k${i}`, (i + 1).toString(16).padStart(12, "0"), "a".repeat(64), max]);
    await asRole(pool, "service_role", { role: "service_role" }, async (c) => {
      await create(c, 0x7a0001);
      await create(c, 0x7a0002);
      await expect(create(c, 0x7a0003)).rejects.toMatchObject({ code: "SK001" });
    }, { rollback: true });
    await asRole(pool, "service_role", { role: "service_role" }, async (c) => {
      const first = (await create(c, 0x7b0001)).rows[0].id as string;
      await create(c, 0x7b0002);
      expect((await c.query("select public.api_key_revoke_for_user($1, $2) ok", [bob, first])).rows[0].ok).toBe(false); // not Bob's
      expect((await c.query("select public.api_key_revoke_for_user($1, $2) ok", [user, first])).rows[0].ok).toBe(true);
      const third = (await create(c, 0x7b0003)).rows[0].id as string; // the revoked key's slot
      await c.query("savepoint over_cap"); // the refusal aborts the transaction up to here only
      await expect(create(c, 0x7b0004)).rejects.toMatchObject({ code: "SK001" });
      await c.query("rollback to savepoint over_cap");
      await c.query("update public.api_keys set expires_at = now() - interval '1 second' where id = $1", [third]);
      await create(c, 0x7b0005); // an expired key is not active either
    }, { rollback: true });
  });
});
