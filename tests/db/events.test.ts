import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { emitServerEvent, stampEvents, validateEventBatch, writeEvents } from "@/lib/backend/events";
import { appEventsPartitionJob } from "@/lib/backend/jobs/plan";
import { bossJobs, testJobs, waitFor } from "../helpers/scheduled-jobs";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient, serviceClient, supabaseAs } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();

const client = supabaseAs;
const service = serviceClient;
const anon = anonClient;

async function newUser(): Promise<{ id: string; email: string; password: string }> {
  const email = `events-${randomUUID().slice(0, 8)}@example.org`;
  const password = "correct-horse-battery-staple";
  const { data, error } = await service().auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(error?.message);
  return { id: data.user.id, email, password };
}

async function eventsOf(userId: string) {
  const { rows } = await pool.query<{ name: string; created_at: Date; surface: string | null; properties: unknown; user_id: string | null }>(
    "select name, created_at, surface, properties, user_id from public.app_events where user_id = $1 order by created_at, name",
    [userId],
  );
  return rows;
}

afterAll(async () => {
  await pool.end();
});

describe("app_events storage (spec: Events rule 5)", () => {
  it("is partitioned by month with this month's and next month's partitions; the job is idempotent", async () => {
    const { rows } = await pool.query<{ child: string; bound: string }>(
      `select c.relname as child, pg_get_expr(c.relpartbound, c.oid) as bound
       from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'public.app_events'::regclass order by 1`,
    );
    const now = new Date();
    const name = (d: Date) => `app_events_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const names = rows.map((r) => r.child);
    expect(names).toContain(name(now));
    expect(names).toContain(name(next));
    const { data, error } = await service().rpc("create_next_app_events_partition");
    expect(error).toBeNull();
    expect(data).toBe(name(next));
    const again = await service().rpc("create_next_app_events_partition");
    expect(again.data).toBe(name(next));
    const after = await pool.query("select count(*)::int as n from pg_inherits where inhparent = 'public.app_events'::regclass");
    expect(after.rows[0].n).toBe(rows.length);
  });

  it("the worker's partition job is queued at start and run by pg-boss", async () => {
    const { rows: before } = await pool.query("select count(*)::int as n from pg_inherits where inhparent = 'public.app_events'::regclass");
    const calls: string[] = [];
    const db = service();
    const spy = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "rpc") return (fn: string, ...rest: unknown[]) => (calls.push(fn), (target.rpc as (...a: unknown[]) => unknown)(fn, ...rest));
        return Reflect.get(target, prop, receiver);
      },
    });
    const jobs = await testJobs([appEventsPartitionJob(spy)]);
    try {
      const queue = jobs.queue("create_next_app_events_partition");
      const [run] = await waitFor("the start run to complete", async () => {
        const rows = await bossJobs(pool, queue);
        return rows.length > 0 && rows.every((r) => r.state === "completed") && rows;
      });
      expect(run.singleton_key).toBe("at-start");
    } finally {
      await jobs.close();
    }
    expect(calls).toEqual(["create_next_app_events_partition"]);
    const { rows: afterRows } = await pool.query("select count(*)::int as n from pg_inherits where inhparent = 'public.app_events'::regclass");
    expect(afterRows[0].n).toBe(before[0].n);
  });

  it("only service_role reads or writes events: anon and authenticated are refused, partitions too", async () => {
    const user = await newUser();
    const { data: session } = await anon().auth.signInWithPassword({ email: user.email, password: user.password });
    const asUser = client(env.anonKey as string, { Authorization: `Bearer ${session.session?.access_token}` });
    for (const c of [anon(), asUser]) {
      const { error } = await c.rpc("insert_app_events", { p_events: [] });
      expect(error?.code).toBe("42501");
      const part = await c.rpc("create_next_app_events_partition");
      expect(part.error?.code).toBe("42501");
    }
    const { rows } = await pool.query<{ role: string; rel: string; can: boolean }>(
      `select r.role, c.relname as rel, has_table_privilege(r.role, c.oid, 'select') or has_table_privilege(r.role, c.oid, 'insert') as can
       from (values ('anon'), ('authenticated')) r(role)
       cross join pg_class c where c.relname = 'app_events' or c.relname like 'app_events_y%'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((r) => r.can)).toEqual([]);
  });
});

describe("auth triggers and server events", () => {
  it("account creation emits auth_signed_up, each sign-in auth_signed_in; other updates nothing", async () => {
    const user = await newUser();
    expect((await eventsOf(user.id)).map((e) => e.name)).toEqual(["auth_signed_up"]);
    const { error } = await anon().auth.signInWithPassword({ email: user.email, password: user.password });
    expect(error).toBeNull();
    await pool.query("update auth.users set raw_user_meta_data = '{\"x\":1}' where id = $1", [user.id]);
    const names = (await eventsOf(user.id)).map((e) => e.name);
    expect(names.filter((n) => n === "auth_signed_up")).toHaveLength(1);
    expect(names.filter((n) => n === "auth_signed_in")).toHaveLength(1);
    expect(names).toHaveLength(2);
    // Database-emitted events carry no surface and no properties.
    for (const e of await eventsOf(user.id)) expect(e).toMatchObject({ surface: null, properties: {} });
  });

  it("emitServerEvent records auth_signed_out for the user", async () => {
    const user = await newUser();
    await emitServerEvent({ name: "auth_signed_out", userId: user.id, db: service() });
    expect((await eventsOf(user.id)).map((e) => e.name)).toContain("auth_signed_out");
  });

  it("emitServerEvent never throws, even with invalid input", async () => {
    await expect(emitServerEvent({ name: "auth_signed_out", userId: null, properties: { password: "x" }, db: service() })).resolves.toBeUndefined();
  });

  it("a validated batch is stored with the stamped user_id and the server's clock; the user's deletion nulls user_id", async () => {
    const user = await newUser();
    const events = validateEventBatch({
      events: [
        { name: "judgment_viewed", properties: { document_id: randomUUID() }, session_id: randomUUID(), locale: "pl", app_version: "9.9.9" },
        { name: "chat_message_sent", properties: { message_length: 12 } },
      ],
    });
    const t0 = (await pool.query<{ now: Date }>("select now()")).rows[0].now;
    const n = await writeEvents(service(), stampEvents(events, { userId: user.id, surface: "web", guestCookie: null }));
    expect(n).toBe(2);
    const rows = (await eventsOf(user.id)).filter((e) => e.surface === "web");
    expect(rows.map((r) => r.name).sort()).toEqual(["chat_message_sent", "judgment_viewed"]);
    for (const r of rows) expect(r.created_at.getTime()).toBeGreaterThanOrEqual(t0.getTime());

    const del = await service().auth.admin.deleteUser(user.id);
    expect(del.error).toBeNull();
    expect(await eventsOf(user.id)).toEqual([]);
    const { rows: orphans } = await pool.query("select count(*)::int as n from public.app_events where user_id is null and app_version = '9.9.9'");
    expect(orphans[0].n).toBeGreaterThanOrEqual(1);
  });

  it("a batch that fails in the database stores nothing and is not raised", async () => {
    const before = (await pool.query("select count(*)::int as n from public.app_events")).rows[0].n;
    const n = await writeEvents(service(), [
      { name: "judgment_viewed", properties: {}, user_id: null, surface: "web", guest_session_id: null, session_id: null, locale: null, app_version: null },
      // surface outside the CHECK: the whole statement fails.
      { name: "judgment_viewed", properties: {}, user_id: null, surface: "ios" as "web", guest_session_id: null, session_id: null, locale: null, app_version: null },
    ]);
    expect(n).toBe(0);
    expect((await pool.query("select count(*)::int as n from public.app_events")).rows[0].n).toBe(before);
  });
});
