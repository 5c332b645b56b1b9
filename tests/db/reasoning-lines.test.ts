/**
 * The three reasoning-line stores under RLS and grants: anonymous callers get nothing, signed-in
 * users read, only administrators (app_metadata.role = admin in the verified token) write — checked at the database,
 * as a role with claims and through the gateway's PostgREST RPC with a real user token, so a non-admin cannot write
 * even by skipping the web tier. Deletion is a status: members and events stay, deleted lines are admins' only.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient, supabaseAs, userWithToken } from "../helpers/supabase";

const pool = adminPool();
const userId = randomUUID();
const adminId = randomUUID();
const USER = userClaims(userId);
const ADMIN = { ...userClaims(adminId), app_metadata: { role: "admin" } };
let docs: string[] = [];
const made: string[] = [];

beforeAll(async () => {
  await pool.query("insert into auth.users (id, email) values ($1, $2), ($3, $4)", [userId, `u-${userId}@example.org`, adminId, `a-${adminId}@example.org`]);
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 4")).rows.map((r) => r.id);
});

afterAll(async () => {
  await pool.query("delete from public.reasoning_lines where id = any($1::uuid[])", [made]);
  await pool.query("delete from public.admin_audit_log where actor_id = any($1::uuid[])", [[userId, adminId]]);
  await pool.query("delete from auth.users where id = any($1::uuid[])", [[userId, adminId]]);
  await pool.end();
});

const members = (ids: string[]) => JSON.stringify(ids.map((id) => ({ judgment_id: id })));

async function createAsAdmin(label: string, ids = docs.slice(0, 3)): Promise<{ id: string; member_count: number }> {
  const line = await asRole(pool, "authenticated", ADMIN, async (c) =>
    (await c.query("select public.reasoning_line_create($1, null, $2, null, $3::jsonb) as l", [label, ["k1"], members(ids)])).rows[0].l,
  );
  made.push(line.id);
  return line;
}

const code = async (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code ?? String(e));

describe("reasoning lines in the database", () => {
  it("admins create a line; members are ordered by decision date with the origin first", async () => {
    const line = await createAsAdmin("db test line");
    expect(line.member_count).toBe(3);
    const { rows } = await pool.query(
      `select m.position, m.role, m.decision_date::text as d from public.reasoning_line_members m where m.line_id = $1 order by m.position`,
      [line.id],
    );
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2]);
    expect(rows[0].role).toBe("origin");
    expect(rows.slice(1).every((r) => r.role === "follows")).toBe(true);
    expect([...rows.map((r) => r.d)].sort()).toEqual(rows.map((r) => r.d));
  });

  it("signed-in users read, write nothing (RPC or table), and cannot see deleted lines", async () => {
    const line = await createAsAdmin("visible then deleted");
    const read = await asRole(pool, "authenticated", USER, async (c) => (await c.query("select public.reasoning_line_get($1, true) as l", [line.id])).rows[0].l);
    expect(read.members).toHaveLength(3);
    expect(await code(asRole(pool, "authenticated", USER, (c) => c.query("select public.reasoning_line_create('x', null, '{}', null, $1::jsonb)", [members(docs)]), { rollback: true }))).toBe("42501");
    expect(await code(asRole(pool, "authenticated", USER, (c) => c.query("select public.reasoning_line_delete($1)", [line.id]), { rollback: true }))).toBe("42501");
    expect(
      await code(asRole(pool, "authenticated", USER, (c) => c.query("select public.reasoning_line_add_events($1::jsonb, 'x')", [JSON.stringify([{ line_id: line.id, kind: "drift" }])]), { rollback: true })),
    ).toBe("42501");
    // Straight at the tables: RLS refuses the insert, and the update silently matches no row.
    expect(await code(asRole(pool, "authenticated", USER, (c) => c.query("insert into public.reasoning_lines (label) values ('sneaky')"), { rollback: true }))).toBe("42501");
    const upd = await asRole(pool, "authenticated", USER, (c) => c.query("update public.reasoning_lines set label = 'changed' where id = $1", [line.id]), { rollback: true });
    expect(upd.rowCount).toBe(0);
    expect(await code(asRole(pool, "authenticated", ADMIN, (c) => c.query("delete from public.reasoning_lines where id = $1", [line.id]), { rollback: true }))).toBe("42501");

    const del = await asRole(pool, "authenticated", ADMIN, async (c) => (await c.query("select public.reasoning_line_delete($1) as d", [line.id])).rows[0].d);
    expect(del).toMatchObject({ before: "active", after: "deleted" });
    const { rows } = await pool.query("select status, (select count(*)::int from public.reasoning_line_members where line_id = $1) as n from public.reasoning_lines where id = $1", [line.id]);
    expect(rows[0]).toEqual({ status: "deleted", n: 3 });
    const asUser = await asRole(pool, "authenticated", USER, async (c) => (await c.query("select public.reasoning_line_get($1, true) as l", [line.id])).rows[0].l);
    expect(asUser).toBeNull();
    const userMembers = await asRole(pool, "authenticated", USER, (c) => c.query("select * from public.reasoning_line_members where line_id = $1", [line.id]));
    expect(userMembers.rowCount).toBe(0);
    const asAdmin = await asRole(pool, "authenticated", ADMIN, async (c) => (await c.query("select public.reasoning_line_get($1, true) as l", [line.id])).rows[0].l);
    expect(asAdmin.status).toBe("deleted");
    const hidden = await asRole(pool, "authenticated", ADMIN, async (c) => (await c.query("select public.reasoning_line_get($1, false) as l", [line.id])).rows[0].l);
    expect(hidden).toBeNull();
    // Deleting twice: no such (visible) line.
    expect(await code(asRole(pool, "authenticated", ADMIN, (c) => c.query("select public.reasoning_line_delete($1)", [line.id]), { rollback: true }))).toBe("P0002");
  });

  it("anonymous callers reach none of it", async () => {
    for (const sql of ["select * from public.reasoning_lines", "select public.reasoning_lines_list(10, 0, false)", "select public.judge_search('ab', 5)"]) {
      expect(await code(asRole(pool, "anon", null, (c) => c.query(sql), { rollback: true }))).toBe("42501");
    }
    const { error } = await anonClient().rpc("reasoning_lines_list", { p_limit: 10, p_offset: 0 });
    expect(error).not.toBeNull();
  });

  it("a non-admin token calling PostgREST RPC directly through the gateway cannot write", async () => {
    const u = await userWithToken("rl-rpc");
    const client = supabaseAs(stackEnv().anonKey as string, { Authorization: `Bearer ${u.token}` });
    const create = await client.rpc("reasoning_line_create", { p_label: "via rpc", p_description: null, p_keywords: [], p_legal_question: null, p_members: docs.map((id) => ({ judgment_id: id })) });
    expect(create.error, JSON.stringify(create)).not.toBeNull();
    expect(create.error?.code, JSON.stringify(create.error)).toBe("42501");
    const list = await client.rpc("reasoning_lines_list", { p_limit: 5, p_offset: 0 });
    expect(list.error).toBeNull();
    expect(typeof list.data.total).toBe("number");
    await pool.query("delete from auth.users where id = $1", [u.id]);
  });

  it("events are stored by admins and kept with the line", async () => {
    const line = await createAsAdmin("with events");
    const stored = await asRole(pool, "authenticated", ADMIN, async (c) =>
      (await c.query("select public.reasoning_line_add_events($1::jsonb, 'test') as e", [JSON.stringify([{ line_id: line.id, kind: "drift", details: { key: "k" } }])])).rows[0].e,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: "drift", detected_by: "test", details: { key: "k" } });
    expect(await code(asRole(pool, "authenticated", ADMIN, (c) => c.query("select public.reasoning_line_add_events($1::jsonb, 'test')", [JSON.stringify([{ line_id: line.id, kind: "nonsense" }])]), { rollback: true }))).toBe("23514");
  });
});
