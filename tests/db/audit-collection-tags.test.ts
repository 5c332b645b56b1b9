import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { createUser } from "../helpers/supabase";

/**
 * Migration 20260110000100_collection_tags (spec audit defects 11 and 12): the tags column and its
 * check, create_collection with tags and documents in one atomic call, the paged list and its count, with the grants
 * and RLS of the other collection functions.
 */
const pool = adminPool();
let alice: string;
let bob: string;
let docs: string[];

beforeAll(async () => {
  alice = (await createUser()).id;
  bob = (await createUser()).id;
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 3")).rows.map((r) => r.id);
});
afterAll(() => pool.end());

const as = <T,>(userId: string, fn: Parameters<typeof asRole<T>>[3]) => asRole(pool, "authenticated", userClaims(userId), fn);

async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe("collections.tags and create_collection(p_name, p_description, p_tags, p_document_ids)", () => {
  it("creates with tags and documents; an unknown id raises SC002 and leaves nothing behind", async () => {
    const row = await as(alice, async (c) =>
      (await c.query("select * from public.create_collection('Tagged', null, array['a','b'], $1::uuid[])", [[docs[0], docs[1]]])).rows[0],
    );
    expect(row).toMatchObject({ user_id: alice, name: "Tagged", tags: ["a", "b"], document_count: "2" });
    const before = (await pool.query("select count(*)::int as n from public.collections where user_id = $1", [alice])).rows[0].n;
    const unknown = "00000000-0000-4000-8000-00000000dcba";
    expect(await sqlstate(as(alice, (c) => c.query("select public.create_collection('Bad', null, null, $1::uuid[])", [[docs[0], unknown]])))).toBe("SC002");
    expect((await pool.query("select count(*)::int as n from public.collections where user_id = $1", [alice])).rows[0].n).toBe(before);
  });

  it("the check refuses blank, padded, long, duplicate and too many tags, even on a direct insert", async () => {
    for (const tags of [[""], [" a"], ["x".repeat(51)], ["a", "a"], Array.from({ length: 21 }, (_, i) => `t${i}`), [null]]) {
      expect([tags, await sqlstate(as(alice, (c) => c.query("insert into public.collections (name, tags) values ('x', $1)", [tags])))]).toEqual([tags, "23514"]);
      expect([tags, await sqlstate(as(alice, (c) => c.query("select public.create_collection('x', null, $1::text[])", [tags])))]).toEqual([tags, "22023"]);
    }
  });

  it("list_collections pages (newest first) and count_collections counts only the caller's rows", async () => {
    for (const n of ["p1", "p2", "p3"]) await as(bob, (c) => c.query("select public.create_collection($1)", [n]));
    const page = await as(bob, async (c) => (await c.query<{ name: string }>("select name from public.list_collections(2, 1)")).rows);
    expect(page.map((r) => r.name)).toEqual(["p2", "p1"]);
    const all = await as(bob, async (c) => (await c.query("select * from public.list_collections()")).rows);
    expect(all).toHaveLength(3);
    expect(await as(bob, async (c) => (await c.query("select public.count_collections() as n")).rows[0].n)).toBe(3);
    expect(await sqlstate(asRole(pool, "anon", { role: "anon" }, (c) => c.query("select public.count_collections()")))).toBe("42501");
    expect(await sqlstate(asRole(pool, "anon", { role: "anon" }, (c) => c.query("select * from public.list_collections(1, 0)")))).toBe("42501");
  });

  it("each function keeps one overload (the REST layer resolves by argument names)", async () => {
    const { rows } = await pool.query<{ proname: string; n: number }>(
      `select proname, count(*)::int as n from pg_proc
        where pronamespace = 'public'::regnamespace and proname in ('create_collection', 'list_collections', 'count_collections')
        group by proname order by proname`,
    );
    expect(rows).toEqual([
      { proname: "count_collections", n: 1 },
      { proname: "create_collection", n: 1 },
      { proname: "list_collections", n: 1 },
    ]);
  });
});
