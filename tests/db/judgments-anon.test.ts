import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { anonClient } from "../helpers/supabase";

/**
 * anon may not read the judgments table (security review L13, migration 20261124000500): a holder of the public anon
 * key cannot bulk-read the corpus behind a real PostgREST. The one read guests need, a judgment by id
 * (judgment_detail, the public document page), still works, as the role and through the gateway with supabase-js.
 */

const pool = adminPool();
let id: string;

beforeAll(async () => {
  const { rows } = await pool.query<{ id: string }>("select id from public.judgments order by id limit 1");
  if (!rows[0]) throw new Error("the test database has no judgments");
  id = rows[0].id;
});

afterAll(async () => {
  await pool.end();
});

const denied = { code: "42501" };

describe("anon and the judgments table", () => {
  it("anon cannot select any column of public.judgments", async () => {
    await expect(asRole(pool, "anon", null, (c) => c.query("select id from public.judgments limit 1"))).rejects.toMatchObject(denied);
    await expect(asRole(pool, "anon", null, (c) => c.query("select count(*) from public.judgments"))).rejects.toMatchObject(denied);
    await expect(asRole(pool, "anon", null, (c) => c.query("select full_text from public.judgments where id = $1", [id]))).rejects.toMatchObject(denied);
  });

  it("anon still reads one judgment by id through judgment_detail (the guest's document page), index columns left out", async () => {
    const detail = await asRole(pool, "anon", null, async (c) => (await c.query("select public.judgment_detail($1) as d", [id])).rows[0].d);
    expect(detail).toMatchObject({ id });
    expect(typeof detail.full_text).toBe("string");
    expect(detail).not.toHaveProperty("base_search_tsv");
    expect(detail).not.toHaveProperty("source_id");
  });

  it("anon may not call judgments_by_ids (the sign-in-only batch read)", async () => {
    await expect(asRole(pool, "anon", null, (c) => c.query("select public.judgments_by_ids($1)", [[id]]))).rejects.toMatchObject(denied);
  });

  it("a signed-in user still selects judgments and reads batches", async () => {
    const claims = userClaims("00000000-0000-4000-8000-0000000000a1");
    const n = await asRole(pool, "authenticated", claims, async (c) => Number((await c.query("select count(*) from public.judgments where id = $1", [id])).rows[0].count));
    expect(n).toBe(1);
    const batch = await asRole(pool, "authenticated", claims, async (c) => (await c.query("select public.judgments_by_ids($1) as d", [[id]])).rows);
    expect(batch).toEqual([{ d: expect.objectContaining({ id }) }]);
  });

  it("through the gateway with the anon key (supabase-js): judgment_detail answers, judgments_by_ids is refused", async () => {
    const detail = await anonClient().rpc("judgment_detail", { p_id: id });
    expect(detail.error).toBeNull();
    expect(detail.data).toMatchObject({ id });
    const batch = await anonClient().rpc("judgments_by_ids", { p_ids: [id] });
    expect(batch.error?.code).toBe("42501");
  });
});
