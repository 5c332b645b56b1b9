import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_FIELDS } from "@/lib/schema/fields";
import { SENTENCE_FIELDS } from "@/lib/schema/sentence-fields";
import { isEmpty, isEmptyEnumValue, isCompletedStatus, coverageRatio } from "@/lib/schema/completeness";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

/**
 * The admin area's tables and functions as each caller sees them: dashboard_stats (public read, no writes),
 * admin_audit_log (admins read, written only through record_admin_action), scheduled_job_runs (service role only), and the service-role-only functions reading auth.users. Callers: anon, two
 * users, an admin (a token with app_metadata.role = admin: the role buys nothing at the database for these).
 */

const pool = adminPool();
afterAll(() => pool.end());

const alice = randomUUID();
const bob = randomUUID();
const root = randomUUID();
const adminClaims = { ...userClaims(root), app_metadata: { role: "admin" } };
const CALLERS = [
  ["anon", "anon", null],
  ["alice", "authenticated", userClaims(alice)],
  ["bob", "authenticated", userClaims(bob)],
  ["admin", "authenticated", adminClaims],
] as const;

beforeAll(async () => {
  for (const [id, role] of [[alice, {}], [bob, {}], [root, { role: "admin" }]] as const) {
    await pool.query("insert into auth.users (id, email, raw_app_meta_data) values ($1, $2, $3)", [id, `${id.slice(0, 8)}@example.org`, role]);
  }
  await pool.query("select public.refresh_dashboard_stats()");
});

afterAll(async () => {
  await pool.query("delete from auth.users where id = any($1)", [[alice, bob, root]]);
});

describe("dashboard_stats: everybody reads the one row, nobody but the service role writes", () => {
  it.each(CALLERS)("%s", async (_name, role, claims) => {
    await asRole(pool, role, claims, async (c) => {
      const { rows } = await c.query<{ s: { total_judgments: number } }>("select public.get_dashboard_stats() s");
      expect(rows[0].s.total_judgments).toBeGreaterThanOrEqual(0);
      expect((await c.query("select id from public.dashboard_stats")).rowCount).toBe(1);
    }, { rollback: true });
    for (const sql of [
      "update public.dashboard_stats set stats = '{}'::jsonb",
      "delete from public.dashboard_stats",
      "insert into public.dashboard_stats (id, stats) values (true, '{}'::jsonb)",
      "select public.refresh_dashboard_stats()",
    ]) {
      await expect(asRole(pool, role, claims, (c) => c.query(sql), { rollback: true })).rejects.toThrow(/permission denied/);
    }
  });

  it("only one row can exist", async () => {
    await expect(pool.query("insert into public.dashboard_stats (id, stats) values (false, '{}'::jsonb)")).rejects.toThrow(/check/);
  });
});

describe("admin_audit_log: admins read it, nobody writes it but through record_admin_action", () => {
  const action = `test.audit_rls.${randomUUID().slice(0, 8)}`;
  const seed = async (c: pg.PoolClient) => {
    await c.query("insert into public.admin_audit_log (actor_id, action, target_type, target_id, after) values ($1, $2, 'user', $3, '{\"role\":\"admin\"}')", [root, action, alice]);
  };
  const WRITES = [
    "insert into public.admin_audit_log (action, target_type) values ('forged', 'user')",
    "update public.admin_audit_log set action = 'rewritten'",
    "delete from public.admin_audit_log",
  ];

  it("anon: no read, no write, no record_admin_action", async () => {
    for (const sql of ["select id from public.admin_audit_log", ...WRITES, "select public.record_admin_action('x', 'user')"]) {
      await expect(asRole(pool, "anon", null, (c) => c.query(sql), { rollback: true, before: seed })).rejects.toThrow(/permission denied/);
    }
  });

  it.each([
    ["alice", userClaims(alice)],
    ["bob", userClaims(bob)],
  ] as const)("%s (a user): sees no row, cannot write or record", async (_name, claims) => {
    await asRole(
      pool,
      "authenticated",
      claims,
      async (c) => {
        // The row is there (seeded in this transaction); RLS hides it, and every other row.
        expect((await c.query("select id from public.admin_audit_log")).rowCount).toBe(0);
      },
      { rollback: true, before: seed },
    );
    for (const sql of WRITES) {
      await expect(asRole(pool, "authenticated", claims, (c) => c.query(sql), { rollback: true, before: seed })).rejects.toThrow(/permission denied/);
    }
    await expect(
      asRole(pool, "authenticated", claims, (c) => c.query("select public.record_admin_action('user.grant_admin', 'user', $1)", [bob]), { rollback: true }),
    ).rejects.toThrow(/only admins record admin actions/);
  });

  it("admin: reads the log, records through the function as itself (never as a named actor), cannot edit it", async () => {
    await asRole(
      pool,
      "authenticated",
      adminClaims,
      async (c) => {
        const seen = await c.query<{ actor_id: string; target_id: string }>("select actor_id, target_id from public.admin_audit_log where action = $1", [action]);
        expect(seen.rows).toEqual([{ actor_id: root, target_id: alice }]);
        // p_actor_id names alice: only the service role may name the actor, so the admin in the token is recorded.
        const { rows } = await c.query<{ id: string }>("select public.record_admin_action($1, 'user', $2, null, null, $3) id", [`${action}.own`, bob, alice]);
        const own = await c.query<{ actor_id: string }>("select actor_id from public.admin_audit_log where id = $1", [rows[0].id]);
        expect(own.rows).toEqual([{ actor_id: root }]);
      },
      { rollback: true, before: seed },
    );
    for (const sql of WRITES) {
      await expect(asRole(pool, "authenticated", adminClaims, (c) => c.query(sql), { rollback: true, before: seed })).rejects.toThrow(/permission denied/);
    }
  });
});

describe("service-role-only tables and functions", () => {
  const FUNCTIONS = [
    "select public.auth_access_snapshot()",
    "select public.admin_list_users('', 1, 10)",
    `select public.admin_user_state('${randomUUID()}')`,
    "select public.admin_stats()",
    "select public.admin_activity(10, null)",
    "select public.admin_audit_entries(10, null)",
    "select public.admin_documents_stats()",
    "select public.admin_system_facts()",
    "select public.record_job_run('x', true)",
    "select * from public.scheduled_job_runs",
    "select public.dashboard_field_coverage()",
  ];
  it.each(CALLERS)("%s is refused every one", async (_name, role, claims) => {
    for (const sql of FUNCTIONS) {
      await expect(asRole(pool, role, claims, (c) => c.query(sql), { rollback: true })).rejects.toThrow(/permission denied/);
    }
  });

  it("the service role reads them", async () => {
    await asRole(pool, "service_role", { role: "service_role" }, async (c) => {
      const snap = (await c.query<{ s: { banned: string[]; admins: string[] } }>("select public.auth_access_snapshot() s")).rows[0].s;
      expect(snap.admins).toContain(root);
      expect(snap.admins).not.toContain(alice);
      const users = (await c.query<{ u: { total: number; users: { id: string; role: string }[] } }>(
        "select public.admin_list_users($1, 1, 10) u",
        [root.slice(0, 8)],
      )).rows[0].u;
      expect(users.users).toEqual([expect.objectContaining({ id: root, role: "admin" })]);
      await c.query("select public.record_job_run('probe_job', false, 'boom')");
      const jobs = (await c.query("select last_ok, last_error from public.scheduled_job_runs where name = 'probe_job'")).rows;
      expect(jobs).toEqual([{ last_ok: false, last_error: "boom" }]);
    }, { rollback: true });
  });

  it("a banned user is in the snapshot until the ban ends", async () => {
    await pool.query("update auth.users set banned_until = now() + interval '1 hour' where id = $1", [bob]);
    const banned = (await pool.query<{ s: { banned: string[] } }>("select public.auth_access_snapshot() s")).rows[0].s.banned;
    expect(banned).toContain(bob);
    await pool.query("update auth.users set banned_until = now() - interval '1 second' where id = $1", [bob]);
    expect((await pool.query<{ s: { banned: string[] } }>("select public.auth_access_snapshot() s")).rows[0].s.banned).not.toContain(bob);
  });
});

describe("dashboard completeness follows the completeness constants", () => {
  it("by_field has one ratio per registry field, equal to the TypeScript rule over the same rows", async () => {
    const stats = (await pool.query<{ s: { data_completeness: { by_field: Record<string, number | null>; overall: number | null } } }>(
      "select public.get_dashboard_stats() s",
    )).rows[0].s;
    const byField = stats.data_completeness.by_field;
    expect(Object.keys(byField).sort()).toEqual([...BASE_FIELDS, ...SENTENCE_FIELDS].map((f) => f.name).sort());
    // Recompute two fields in TypeScript: one enum-coded, one free-text/array.
    const enumField = BASE_FIELDS.find((f) => f.control === "enum_multi" && f.type === "text");
    const arrayField = BASE_FIELDS.find((f) => f.type === "text[]");
    if (!enumField || !arrayField) throw new Error("registry changed");
    const { rows } = await pool.query<{ status: string; e: string | null; a: string[] | null }>(
      `select base_extraction_status status, ${enumField.column} e, ${arrayField.column} a from public.judgments`,
    );
    const done = rows.filter((r) => isCompletedStatus(r.status));
    expect(byField[enumField.name]).toBe(coverageRatio(done.filter((r) => !isEmptyEnumValue(r.e)).length, done.length));
    expect(byField[arrayField.name]).toBe(coverageRatio(done.filter((r) => !isEmpty(r.a)).length, done.length));
  });
});
