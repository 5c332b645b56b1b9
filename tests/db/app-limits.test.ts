import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { DATABASE_LIMITS, databaseLimits, syncDatabaseLimits } from "@/lib/backend/limits";
import type { DbClient } from "@/lib/supabase/db-client";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { createUser, serviceClient } from "../helpers/supabase";

/**
 * The caps the database enforces (app_limits, migration 20261207100000; P-81): the same names and default values as
 * lib/config.ts, written only by the service role (syncDatabaseLimits at start), and what the per-row guards of
 * saved_searches hold whoever writes (the direct INSERT revoked, the params shape, the per-user count).
 */
const pool = adminPool();
let alice: string;

beforeAll(async () => {
  alice = (await createUser()).id;
});
afterAll(async () => {
  delete process.env.EXTRACTION_MAX_DOCUMENTS;
  resetConfigForTests();
  await syncDatabaseLimits(serviceClient() as unknown as DbClient);
  await pool.end();
});

const as = <T,>(userId: string, fn: Parameters<typeof asRole<T>>[3], opts?: Parameters<typeof asRole<T>>[4]) =>
  asRole(pool, "authenticated", userClaims(userId), fn, opts);

async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

const rows = async () =>
  Object.fromEntries((await pool.query<{ name: string; value: number }>("select name, value from public.app_limits")).rows.map((r) => [r.name, r.value]));

describe("app_limits mirrors lib/config.ts", () => {
  it("one row per database-enforced setting, holding the config default (the migration's seed and config agree)", async () => {
    resetConfigForTests();
    expect(Object.keys(await rows()).sort()).toEqual([...DATABASE_LIMITS].sort());
    expect(await rows()).toEqual(databaseLimits());
  });

  it("syncDatabaseLimits writes this process's configured values; set_app_limits ignores unknown names, refuses non-integers", async () => {
    process.env.EXTRACTION_MAX_DOCUMENTS = "4321";
    resetConfigForTests();
    const service = serviceClient() as unknown as DbClient;
    expect(await syncDatabaseLimits(service)).toBe(1);
    expect((await rows()).EXTRACTION_MAX_DOCUMENTS).toBe(4321);
    expect(await syncDatabaseLimits(service)).toBe(0);
    expect((await service.rpc("set_app_limits", { p_limits: { NOT_A_LIMIT: 5 } })).data).toBe(0);
    for (const bad of [{ SCHEMA_MAX_FIELDS: 1.5 }, { SCHEMA_MAX_FIELDS: 0 }, { SCHEMA_MAX_FIELDS: "100" }, [1]]) {
      expect((await service.rpc("set_app_limits", { p_limits: bad })).error?.code, JSON.stringify(bad)).toBe("22023");
    }
    delete process.env.EXTRACTION_MAX_DOCUMENTS;
    resetConfigForTests();
    expect(await syncDatabaseLimits(service)).toBe(1);
    expect(await rows()).toEqual(databaseLimits());
  });

  it("a signed-in user reads the caps but cannot change them (no grant on the table, no EXECUTE on set_app_limits)", async () => {
    expect(await as(alice, async (c) => (await c.query("select public.app_limit('SAVED_SEARCHES_MAX_PER_USER') as v")).rows[0].v)).toBe(200);
    expect(await sqlstate(as(alice, (c) => c.query("update public.app_limits set value = 1000000")))).toBe("42501");
    expect(await sqlstate(as(alice, (c) => c.query("select public.set_app_limits('{\"SAVED_SEARCHES_MAX_PER_USER\":1000000}')")))).toBe("42501");
    expect(await sqlstate(as(alice, (c) => c.query("select public.app_limit('NO_SUCH_LIMIT')")))).toBe("P0001");
  });
});

describe("saved_searches guards whoever writes", () => {
  const params = '{"mode":"text","filter":"","sort":""}';

  it("a direct INSERT by a signed-in user is refused (42501): create_saved_search is the way in", async () => {
    expect(
      await sqlstate(as(alice, (c) => c.query("insert into public.saved_searches (user_id, name, kind, params) values ($1, 'direct', 'search', $2)", [alice, params]))),
    ).toBe("42501");
  });

  it("a direct UPDATE that breaks the params' shape is refused (23514 saved_searches_params_shape)", async () => {
    const s = await as(alice, async (c) =>
      (await c.query("select * from public.create_saved_search('shape', 'search', '', $1, null, false, 'weekly', 200)", [params])).rows[0],
    );
    for (const bad of ['{"mode":"text","filter":42}', '{"mode":"any"}', '{"extra":true}', '{"mode":"text","url":"javascript:x"}']) {
      expect(await sqlstate(as(alice, (c) => c.query("update public.saved_searches set params = $2 where id = $1", [s.id, bad]))), bad).toBe("23514");
    }
    expect(await sqlstate(as(alice, (c) => c.query("select * from public.update_saved_search($1, $2)", [s.id, { params: { f: { collection_ids: [] } } }])))).toBe("23514");
    expect(await sqlstate(as(alice, (c) => c.query("update public.saved_searches set params = $2 where id = $1", [s.id, '{"mode":"hybrid","filter":"x = 1"}'])))).toBe("ok");
    await pool.query("delete from public.saved_searches where user_id = $1", [alice]);
  });

  it("the per-user count holds for any insert, the owner's included (trigger, SS001)", async () => {
    await pool.query("update public.app_limits set value = 2 where name = 'SAVED_SEARCHES_MAX_PER_USER'");
    try {
      const insert = () => pool.query("insert into public.saved_searches (user_id, name, kind, params) values ($1, 'x', 'search', $2)", [alice, params]);
      await insert();
      await insert();
      expect(await sqlstate(insert())).toBe("SS001");
      // The argument can lower the cap, never raise it.
      await pool.query("delete from public.saved_searches where user_id = $1", [alice]);
      const create = (max: number) => as(alice, (c) => c.query("select * from public.create_saved_search('c', 'search', '', $1, null, false, 'weekly', $2)", [params, max]));
      expect(await sqlstate(create(1))).toBe("ok");
      expect(await sqlstate(create(1))).toBe("SS001");
      expect(await sqlstate(create(1_000_000))).toBe("ok");
      expect(await sqlstate(create(1_000_000))).toBe("SS001");
    } finally {
      await pool.query("update public.app_limits set value = 200 where name = 'SAVED_SEARCHES_MAX_PER_USER'");
      await pool.query("delete from public.saved_searches where user_id = $1", [alice]);
    }
  });
});
