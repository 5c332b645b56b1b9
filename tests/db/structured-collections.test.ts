import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

const pool = adminPool();

const alice = randomUUID();
const bob = randomUUID();
const ALICE = userClaims(alice);
const BOB = userClaims(bob);
let docs: string[] = [];

beforeAll(async () => {
  await pool.query("insert into auth.users (id, email) values ($1, $2), ($3, $4)", [alice, `alice-${alice}@example.org`, bob, `bob-${bob}@example.org`]);
  docs = (
    await pool.query<{ id: string }>("select id::text from public.judgments where base_extraction_status = 'completed' order by id limit 5")
  ).rows.map((r) => r.id);
});

afterAll(async () => {
  // Collections go with their owner (on delete cascade).
  await pool.query("delete from auth.users where id = any($1::uuid[])", [[alice, bob]]);
  await pool.end();
});

interface CollectionRow {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  document_count: string;
}

const as = <T,>(claims: Record<string, unknown>, fn: (c: pg.PoolClient) => Promise<T>) => asRole(pool, "authenticated", claims, fn);

async function create(claims: Record<string, unknown>, name: string, description: string | null = null): Promise<CollectionRow> {
  return as(claims, async (c) => (await c.query<CollectionRow>("select * from public.create_collection($1, $2)", [name, description])).rows[0]);
}

async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe("collections are owner-only", () => {
  it("a user creates, lists, renames and deletes their own collection", async () => {
    const col = await create(ALICE, "  Robbery appeals  ", "first cut");
    expect(col).toMatchObject({ user_id: alice, name: "Robbery appeals", description: "first cut", document_count: "0" });
    const listed = await as(ALICE, async (c) => (await c.query<CollectionRow>("select * from public.list_collections()")).rows);
    expect(listed.map((r) => r.id)).toContain(col.id);
    const renamed = await as(ALICE, async (c) =>
      (await c.query<CollectionRow>("select * from public.update_collection($1, $2)", [col.id, { name: "Renamed", description: null }])).rows,
    );
    expect(renamed).toMatchObject([{ id: col.id, name: "Renamed", description: null }]);
    expect(await as(ALICE, async (c) => (await c.query("select public.delete_collection($1) as d", [col.id])).rows[0].d)).toBe(true);
    expect(await as(ALICE, async (c) => (await c.query("select public.delete_collection($1) as d", [col.id])).rows[0].d)).toBe(false);
  });

  it("another user cannot see, change, fill or delete it", async () => {
    const col = await create(ALICE, "Alice only");
    await as(ALICE, (c) => c.query("select public.add_collection_documents($1, $2::uuid[])", [col.id, docs.slice(0, 2)]));

    expect(await as(BOB, async (c) => (await c.query("select * from public.list_collections()")).rows.map((r) => r.id))).not.toContain(col.id);
    expect(await as(BOB, async (c) => (await c.query("select * from public.get_collection($1)", [col.id])).rows)).toEqual([]);
    expect(await as(BOB, async (c) => (await c.query("select * from public.update_collection($1, $2)", [col.id, { name: "pwned" }])).rows)).toEqual([]);
    expect(await as(BOB, async (c) => (await c.query("select public.delete_collection($1) as d", [col.id])).rows[0].d)).toBe(false);
    expect(await as(BOB, async (c) => (await c.query("select * from public.list_collection_documents($1)", [col.id])).rows)).toEqual([]);
    expect(await sqlstate(as(BOB, (c) => c.query("select public.add_collection_documents($1, $2::uuid[])", [col.id, docs.slice(2, 3)])))).toBe("SC001");
    expect(await sqlstate(as(BOB, (c) => c.query("select public.remove_collection_documents($1, $2::uuid[])", [col.id, docs])))).toBe("SC001");
    expect(await as(BOB, async (c) => (await c.query("select public.count_visible_collections($1::uuid[]) as n", [[col.id]])).rows[0].n)).toBe(0);
    // Direct table access is under the same RLS, and inserting a row owned by someone else is refused.
    expect(await as(BOB, async (c) => (await c.query("select count(*)::int as n from public.collection_documents where collection_id = $1", [col.id])).rows[0].n)).toBe(0);
    expect(await sqlstate(as(BOB, (c) => c.query("insert into public.collections (user_id, name) values ($1, 'x')", [alice])))).toBe("42501");
    expect(await sqlstate(as(BOB, (c) => c.query("insert into public.collection_documents (collection_id, judgment_id) values ($1, $2)", [col.id, docs[3]])))).toBe("42501");

    const still = await as(ALICE, async (c) => (await c.query<CollectionRow>("select * from public.get_collection($1)", [col.id])).rows[0]);
    expect(still).toMatchObject({ name: "Alice only", document_count: "2" });
  });

  it("membership is an upsert, counts only new pairs, and unknown judgments change nothing", async () => {
    const col = await create(BOB, "Bob's");
    const add = (ids: string[]) => as(BOB, async (c) => (await c.query("select public.add_collection_documents($1, $2::uuid[]) as n", [col.id, ids])).rows[0].n);
    expect(await add([docs[0], docs[1], docs[1]])).toBe(2);
    expect(await add([docs[1], docs[2]])).toBe(1);
    const missing = randomUUID();
    const err = await as(BOB, (c) => c.query("select public.add_collection_documents($1, $2::uuid[])", [col.id, [docs[3], missing]])).catch((e) => e as { code: string; detail: string });
    expect(err).toMatchObject({ code: "SC002", detail: missing });
    const page = await as(BOB, async (c) => (await c.query("select id::text, total_count from public.list_collection_documents($1, 2, 0)", [col.id])).rows);
    expect(page.length).toBe(2);
    expect(Number(page[0].total_count)).toBe(3);
    expect(await as(BOB, async (c) => (await c.query("select public.remove_collection_documents($1, $2::uuid[]) as n", [col.id, [docs[0], missing]])).rows[0].n)).toBe(1);
  });

  it("names are 1-255 characters and descriptions at most 1000", async () => {
    expect(await sqlstate(create(ALICE, "   "))).toBe("22023");
    expect(await sqlstate(create(ALICE, "x".repeat(256)))).toBe("22023");
    expect(await sqlstate(create(ALICE, "ok", "d".repeat(1001)))).toBe("22023");
    expect((await create(ALICE, "x".repeat(255), "d".repeat(1000))).name.length).toBe(255);
    const col = await create(ALICE, "patch me");
    const patch = (p: unknown) => as(ALICE, (c) => c.query("select * from public.update_collection($1, $2)", [col.id, p]));
    expect(await sqlstate(patch({ name: "" }))).toBe("22023");
    expect(await sqlstate(patch({ name: 5 }))).toBe("22023");
    expect(await sqlstate(patch({ owner: "x" }))).toBe("22023");
  });

  it("anon has no access at all; the service role bypasses RLS and has no user to create for", async () => {
    const col = await create(ALICE, "seen by service");
    expect(await sqlstate(asRole(pool, "anon", { role: "anon" }, (c) => c.query("select * from public.list_collections()")))).toBe("42501");
    const seen = await asRole(pool, "service_role", { role: "service_role" }, async (c) =>
      (await c.query<CollectionRow>("select * from public.get_collection($1)", [col.id])).rows,
    );
    expect(seen.map((r) => r.user_id)).toEqual([alice]);
    expect(await sqlstate(asRole(pool, "service_role", { role: "service_role" }, (c) => c.query("select public.create_collection('x')")))).toBe("42501");
  });
});

describe("the collection_ids filter key sees only the caller's own collections", () => {
  it("matches members of any listed own collection; another user's collection matches nothing", async () => {
    const a1 = await create(ALICE, "a1");
    const a2 = await create(ALICE, "a2");
    await as(ALICE, (c) => c.query("select public.add_collection_documents($1, $2::uuid[])", [a1.id, [docs[0], docs[1]]]));
    await as(ALICE, (c) => c.query("select public.add_collection_documents($1, $2::uuid[])", [a2.id, [docs[1], docs[4]]]));
    const match = (claims: Record<string, unknown>, filters: unknown) =>
      as(claims, async (c) =>
        (await c.query<{ id: string }>("select id::text from public.list_extracted_filter_matches($1::jsonb, null) order by id", [JSON.stringify(filters)])).rows.map((r) => r.id),
      );
    expect(await match(ALICE, { collection_ids: [a1.id, a2.id] })).toEqual([docs[0], docs[1], docs[4]].sort());
    expect(await match(ALICE, { collection_ids: [a1.id], jurisdiction: ["PL", "UK"] })).toEqual([docs[0], docs[1]].sort());
    expect(await match(BOB, { collection_ids: [a1.id, a2.id] })).toEqual([]);
    const total = await asRole(pool, "authenticated", BOB, async (c) =>
      (await c.query("select public.aggregate_extracted_data($1::jsonb, null, array['jurisdiction']) as r", [JSON.stringify({ collection_ids: [a1.id] })])).rows[0].r.total,
    );
    expect(total).toBe(0);
  });
});
