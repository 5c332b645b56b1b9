import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { createUser } from "../helpers/supabase";

/**
 * Chat tables as two users (RLS owner-only): a user's threads and messages are invisible to another user,
 * who can neither read, rename, delete nor add messages to them; anon has no access at all.
 */
const pool = adminPool();
let alice: string;
let bob: string;

beforeAll(async () => {
  alice = (await createUser()).id;
  bob = (await createUser()).id;
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

describe("chat_threads / chat_messages (RLS owner only)", () => {
  it("the owner writes and reads; the other user sees and changes nothing", async () => {
    const thread = await as(alice, async (c) => (await c.query("select public.chat_create_thread('Robbery sentences') as id")).rows[0].id as string);
    const msg = await as(alice, async (c) =>
      (await c.query(`select public.chat_add_message($1, 'user', 'why reduced?', '[]', '{}') as id`, [thread])).rows[0].id as string,
    );
    expect(msg).toMatch(/^[0-9a-f-]{36}$/);
    const own = await as(alice, async (c) => (await c.query("select * from public.chat_get_thread($1)", [thread])).rows);
    expect(own).toHaveLength(1);
    expect(own[0].messages.map((m: { content: string }) => m.content)).toEqual(["why reduced?"]);

    // Bob: nothing to see, nothing to change.
    expect(await as(bob, async (c) => (await c.query("select * from public.chat_get_thread($1)", [thread])).rows)).toEqual([]);
    expect(await as(bob, async (c) => (await c.query("select * from public.chat_list_threads(100, 0)")).rows)).toEqual([]);
    expect(await as(bob, async (c) => (await c.query("select count(*)::int as n from public.chat_messages")).rows[0].n)).toBe(0);
    expect(await as(bob, async (c) => (await c.query("select * from public.chat_rename_thread($1, 'mine')", [thread])).rows)).toEqual([]);
    expect(await as(bob, async (c) => (await c.query("select public.chat_delete_thread($1) as ok", [thread])).rows[0].ok)).toBe(false);
    expect(await as(bob, async (c) => (await c.query(`select public.chat_add_message($1, 'user', 'planted', '[]', '{}') as id`, [thread])).rows[0].id)).toBeNull();
    // A direct insert into Alice's thread is refused by the policy's check.
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.chat_messages (thread_id, role, content) values ($1, 'user', 'planted')", [thread])))).toBe("42501");
    // Nor can Bob write a row in Alice's name.
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.chat_threads (user_id, title) values ($1, 'x')", [alice])))).toBe("42501");

    const after = (await pool.query("select t.title, (select count(*)::int from public.chat_messages m where m.thread_id = t.id) as n from public.chat_threads t where t.id = $1", [thread])).rows[0];
    expect(after).toEqual({ title: "Robbery sentences", n: 1 });

    expect(await sqlstate(asRole(pool, "anon", null, (c) => c.query("select count(*) from public.chat_threads")))).toBe("42501");
    expect(await sqlstate(asRole(pool, "anon", null, (c) => c.query("select public.chat_list_threads(10, 0)")))).toBe("42501");

    expect(await as(alice, async (c) => (await c.query("select public.chat_delete_thread($1) as ok", [thread])).rows[0].ok)).toBe(true);
    expect(Number((await pool.query("select count(*) from public.chat_messages where thread_id = $1", [thread])).rows[0].count)).toBe(0);
  });

  it("checks shapes: a blank title, an unknown role and a non-array sources are refused", async () => {
    expect(await sqlstate(as(alice, (c) => c.query("select public.chat_create_thread('   ')")))).toBe("23514");
    const thread = await as(alice, async (c) => (await c.query("select public.chat_create_thread('t') as id")).rows[0].id as string);
    expect(await sqlstate(as(alice, (c) => c.query(`select public.chat_add_message($1, 'system', 'x', '[]', '{}')`, [thread])))).toBe("23514");
    expect(await sqlstate(as(alice, (c) => c.query(`select public.chat_add_message($1, 'user', 'x', '{}', '{}')`, [thread])))).toBe("23514");
  });
});
