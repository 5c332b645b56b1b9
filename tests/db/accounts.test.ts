import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { createUser } from "../helpers/supabase";

/**
 * Account tables, as two users and as an admin (RLS): saved_searches and user_settings are owner-only;
 * alert_deliveries are readable by their owner and written only by the digest job (service role / owner of the
 * database); mail_messages are readable only by admins; unsubscribe_saved_search is the service role's only.
 */
const pool = adminPool();
let alice: string;
let bob: string;
let judgment: string;

beforeAll(async () => {
  alice = (await createUser()).id;
  bob = (await createUser()).id;
  judgment = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 1")).rows[0].id;
});
afterAll(() => pool.end());

const as = <T,>(userId: string, fn: Parameters<typeof asRole<T>>[3], claims?: Record<string, unknown>) =>
  asRole(pool, "authenticated", claims ?? userClaims(userId), fn);

async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

const create = (userId: string, name: string, max = 200) =>
  as(userId, async (c) =>
    (await c.query("select * from public.create_saved_search($1, 'search', 'theft', '{\"mode\":\"text\"}', 'F', false, 'daily', $2)", [name, max])).rows[0],
  );

describe("saved_searches (RLS owner only)", () => {
  it("each user sees, changes and deletes only their own; another user's id reads as no row", async () => {
    const a = await create(alice, "Alice's");
    expect(a).toMatchObject({ name: "Alice's", kind: "search", query: "theft", folder: "F", alert_enabled: false, use_count: 0 });
    const seenByBob = await as(bob, async (c) => (await c.query("select * from public.get_saved_search($1)", [a.id])).rows);
    expect(seenByBob).toEqual([]);
    const bobList = await as(bob, async (c) => (await c.query("select count(*)::int as n from public.saved_searches")).rows[0].n);
    expect(bobList).toBe(0);
    expect(await as(bob, async (c) => (await c.query("select * from public.update_saved_search($1, '{\"name\":\"mine\"}')", [a.id])).rows)).toEqual([]);
    expect(await as(bob, async (c) => (await c.query("select public.delete_saved_search($1) as d", [a.id])).rows[0].d)).toBe(false);
    expect(await as(bob, async (c) => (await c.query("select * from public.mark_saved_search_run($1)", [a.id])).rows)).toEqual([]);
    // Bob cannot plant a row owned by Alice.
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.saved_searches (user_id, name, kind) values ($1, 'x', 'search')", [alice])))).toBe("42501");
    const run = await as(alice, async (c) => (await c.query("select * from public.mark_saved_search_run($1)", [a.id])).rows[0]);
    expect(run.use_count).toBe(1);
    expect(run.last_run_at).not.toBeNull();
    expect(await as(alice, async (c) => (await c.query("select public.delete_saved_search($1) as d", [a.id])).rows[0].d)).toBe(true);
  });

  it("the per-user limit raises SS001 and counts only the caller's rows; anonymous callers have no access", async () => {
    const carol = (await createUser()).id;
    await create(carol, "one", 2);
    await create(carol, "two", 2);
    expect(await sqlstate(create(carol, "three", 2))).toBe("SS001");
    await create(bob, "bob's own", 2); // Bob's count is his own
    expect(await sqlstate(asRole(pool, "anon", null, (c) => c.query("select count(*) from public.saved_searches")))).toBe("42501");
  });

  it("enabling an alert starts its watermark; the checks refuse bad kinds, names and frequencies", async () => {
    const s = await create(alice, "Watermark");
    await pool.query("update public.saved_searches set last_digest_at = null where id = $1", [s.id]);
    await as(alice, (c) => c.query("select * from public.update_saved_search($1, '{\"alert_enabled\":true,\"alert_frequency\":\"weekly\"}')", [s.id]));
    const row = (await pool.query("select alert_enabled, alert_frequency, last_digest_at from public.saved_searches where id = $1", [s.id])).rows[0];
    expect(row).toMatchObject({ alert_enabled: true, alert_frequency: "weekly" });
    expect(row.last_digest_at).not.toBeNull();
    // Changed on purpose (security round 3, P-81): callers no longer insert directly (42501); create_saved_search is the
    // way in, and it refuses a kind whose params it cannot check (22023) before the table's checks refuse a blank name.
    expect(await sqlstate(as(alice, (c) => c.query("insert into public.saved_searches (name, kind) values ('x', 'search')")))).toBe("42501");
    const createAs = (name: string, kind: string) =>
      as(alice, (c) => c.query("select * from public.create_saved_search($1, $2, '', '{}', null, false, 'weekly', 200)", [name, kind]));
    expect(await sqlstate(createAs("x", "other"))).toBe("22023");
    expect(await sqlstate(createAs(" ", "search"))).toBe("23514");
    expect(await sqlstate(as(alice, (c) => c.query("select * from public.update_saved_search($1, '{\"alert_frequency\":\"hourly\"}')", [s.id])))).toBe("23514");
    expect(await sqlstate(as(alice, (c) => c.query("select * from public.update_saved_search($1, '{\"owner\":\"x\"}')", [s.id])))).toBe("22023");
  });

  it("unsubscribe_saved_search is the service role's only, and works once per nonce", async () => {
    const s = await create(alice, "Unsubscribe me");
    await pool.query("update public.saved_searches set alert_enabled = true where id = $1", [s.id]);
    const nonce = (await pool.query("select unsubscribe_nonce::text as n from public.saved_searches where id = $1", [s.id])).rows[0].n;
    expect(await sqlstate(as(alice, (c) => c.query("select public.unsubscribe_saved_search($1, $2)", [s.id, nonce])))).toBe("42501");
    const first = await asRole(pool, "service_role", { role: "service_role" }, async (c) => (await c.query("select public.unsubscribe_saved_search($1, $2) as n", [s.id, nonce])).rows[0].n);
    expect(first).toBe("Unsubscribe me");
    const again = await asRole(pool, "service_role", { role: "service_role" }, async (c) => (await c.query("select public.unsubscribe_saved_search($1, $2) as n", [s.id, nonce])).rows[0].n);
    expect(again).toBeNull();
    expect((await pool.query("select alert_enabled from public.saved_searches where id = $1", [s.id])).rows[0].alert_enabled).toBe(false);
  });
});

describe("user_settings (RLS owner only)", () => {
  it("defaults without a row; each user reads and writes only their own", async () => {
    const fresh = await as(bob, async (c) => (await c.query("select * from public.get_my_settings()")).rows[0]);
    expect(fresh).toEqual({ display_name: null, language: "en", alerts_paused: false });
    const saved = await as(alice, async (c) => (await c.query(`select * from public.update_my_settings('{"display_name":"Alice","language":"pl"}')`)).rows[0]);
    expect(saved).toEqual({ display_name: "Alice", language: "pl", alerts_paused: false });
    expect(await as(bob, async (c) => (await c.query("select count(*)::int as n from public.user_settings")).rows[0].n)).toBe(0);
    expect(await as(bob, async (c) => (await c.query("update public.user_settings set language = 'en' where user_id = $1", [alice])).rowCount)).toBe(0);
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.user_settings (user_id) values ($1)", [alice])))).toBe("42501");
    expect(await sqlstate(as(alice, (c) => c.query(`select public.update_my_settings('{"language":"de"}')`)))).toBe("23514");
  });
});

describe("alert_deliveries (owner reads; only the job writes) and mail_messages (admins read)", () => {
  it("a user sees only their own deliveries and cannot write any; the pair is unique", async () => {
    const s = await create(alice, "Delivered");
    const run = "00000000-0000-4000-8000-000000000001";
    await pool.query("insert into public.alert_deliveries (saved_search_id, judgment_id, user_id, run_id, status) values ($1, $2, $3, $4, 'sent')", [s.id, judgment, alice, run]);
    expect(await sqlstate(pool.query("insert into public.alert_deliveries (saved_search_id, judgment_id, user_id, run_id) values ($1, $2, $3, $4)", [s.id, judgment, alice, run]))).toBe("23505");
    expect(await as(alice, async (c) => (await c.query("select count(*)::int as n from public.alert_deliveries where saved_search_id = $1", [s.id])).rows[0].n)).toBe(1);
    expect(await as(bob, async (c) => (await c.query("select count(*)::int as n from public.alert_deliveries where saved_search_id = $1", [s.id])).rows[0].n)).toBe(0);
    expect(await sqlstate(as(alice, (c) => c.query("update public.alert_deliveries set status = 'failed' where saved_search_id = $1", [s.id])))).toBe("42501");
    expect(await sqlstate(as(alice, (c) => c.query("insert into public.alert_deliveries (saved_search_id, judgment_id, user_id, run_id) values ($1, $2, $3, $4)", [s.id, judgment, alice, run])))).toBe("42501");
  });

  it("only an admin's token reads mail_messages; nobody but the server inserts", async () => {
    const id = (await pool.query("insert into public.mail_messages (subject, rcpt_to) values ('db-test mail', '{x@example.org}') returning id")).rows[0].id;
    const adminClaims = { ...userClaims(bob), app_metadata: { role: "admin" } };
    const seen = (claims?: Record<string, unknown>) =>
      as(bob, async (c) => (await c.query("select count(*)::int as n from public.list_mail_messages(100, 0) where id = $1", [id])).rows[0].n, claims);
    expect(await seen()).toBe(0);
    expect(await seen(adminClaims)).toBe(1);
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.mail_messages (subject) values ('x')"), adminClaims))).toBe("42501");
    expect(await sqlstate(asRole(pool, "anon", null, (c) => c.query("select count(*) from public.mail_messages")))).toBe("42501");
  });
});

describe("deleting an account", () => {
  it("removes saved searches and settings; search analytics rows stay with user_id null", async () => {
    const dave = (await createUser()).id;
    await create(dave, "gone");
    await as(dave, (c) => c.query(`select public.update_my_settings('{"language":"pl"}')`));
    const row = (await pool.query("insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id) values ('kept', 1, 1, 'text', $1) returning id", [dave])).rows[0];
    await pool.query("delete from auth.users where id = $1", [dave]);
    expect((await pool.query("select count(*)::int as n from public.saved_searches where user_id = $1", [dave])).rows[0].n).toBe(0);
    expect((await pool.query("select count(*)::int as n from public.user_settings where user_id = $1", [dave])).rows[0].n).toBe(0);
    expect((await pool.query("select user_id, query from public.search_analytics where id = $1", [row.id])).rows[0]).toEqual({ user_id: null, query: "kept" });
  });
});
