import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { noRealtime } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();

function client(key: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(env.supabaseUrl as string, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
    global: { headers },
  });
}

const anon = () => client(env.anonKey as string);
const service = () => client(env.serviceRoleKey as string);
const asUser = (token: string) => client(env.anonKey as string, { Authorization: `Bearer ${token}` });

// Test-only objects, created here and dropped after (never in a migration).
const SETUP = `
create table public.test_gw_notes (id int primary key, owner uuid, note text not null, is_public boolean not null default false);
alter table public.test_gw_notes enable row level security;
create policy test_gw_notes_anon on public.test_gw_notes for select to anon using (is_public);
create policy test_gw_notes_auth on public.test_gw_notes for select to authenticated using (is_public or owner = auth.uid());
grant select on public.test_gw_notes to anon, authenticated, service_role;

create function public.test_gw_series(p_from int, p_to int) returns setof int
  language sql stable set search_path = '' as $$ select generate_series(p_from, p_to) $$;

create function public.test_gw_rows(p_n int, p_tags text[] default '{}') returns table (n int, label text, tags text[])
  language sql stable set search_path = '' as $$
    select i, 'row ' || i, p_tags from generate_series(1, p_n) as i $$;

create function public.test_gw_echo(p_doc jsonb, p_id uuid, p_ids int[], p_when timestamptz default null) returns jsonb
  language sql immutable set search_path = '' as $$
    select jsonb_build_object('doc', p_doc, 'id', p_id, 'sum', (select sum(x) from unnest(p_ids) x), 'when', p_when) $$;

create function public.test_gw_add(p_a int, p_b int) returns int
  language sql immutable set search_path = '' as $$ select p_a + p_b $$;

create function public.test_gw_over(p_x int) returns text language sql immutable as $$ select 'int' $$;
create function public.test_gw_over(p_x text) returns text language sql immutable as $$ select 'text' $$;

create function public.test_gw_visible() returns table (id int, note text)
  language sql stable security invoker set search_path = '' as $$
    select id, note from public.test_gw_notes order by id $$;

create function public.test_gw_whoami() returns jsonb
  language sql stable set search_path = '' as $$
    select jsonb_build_object('user', current_user, 'uid', auth.uid(), 'role', auth.role(),
      'email', auth.jwt() ->> 'email', 'method', current_setting('request.method', true)) $$;

create function public.test_gw_teapot() returns void language plpgsql volatile as $$
  begin raise sqlstate 'PT418' using message = 'I am a teapot', detail = 'short and stout'; end $$;

create function public.test_gw_raise(p_msg text) returns void language plpgsql volatile as $$
  begin raise exception '%', p_msg using hint = 'try again'; end $$;

create function public.test_gw_write(p_note text) returns int language sql volatile set search_path = '' as $$
  insert into public.test_gw_notes (id, note) values ((select coalesce(max(id), 0) + 1 from public.test_gw_notes), p_note)
  returning id $$;

create function public.test_gw_secret() returns int language sql stable as $$ select 42 $$;

create function public.test_gw_nothing() returns void language sql volatile as $$ select $$;

grant execute on function public.test_gw_series(int, int), public.test_gw_rows(int, text[]),
  public.test_gw_echo(jsonb, uuid, int[], timestamptz), public.test_gw_add(int, int), public.test_gw_over(int),
  public.test_gw_over(text), public.test_gw_visible(), public.test_gw_whoami(), public.test_gw_teapot(),
  public.test_gw_raise(text), public.test_gw_write(text), public.test_gw_nothing()
  to anon, authenticated, service_role;
grant insert on public.test_gw_notes to service_role;
revoke execute on function public.test_gw_secret() from public, anon;
grant execute on function public.test_gw_secret() to service_role;
`;

const TEARDOWN = `
drop function if exists public.test_gw_series(int, int), public.test_gw_rows(int, text[]),
  public.test_gw_echo(jsonb, uuid, int[], timestamptz), public.test_gw_add(int, int), public.test_gw_over(int),
  public.test_gw_over(text), public.test_gw_visible(), public.test_gw_whoami(), public.test_gw_teapot(),
  public.test_gw_raise(text), public.test_gw_write(text), public.test_gw_secret(), public.test_gw_nothing();
drop table if exists public.test_gw_notes;
`;

let userId = "";
let userToken = "";
let userEmail = "";

beforeAll(async () => {
  await pool.query(TEARDOWN);
  await pool.query(SETUP);
  userEmail = `gw-rpc-${randomUUID()}@example.test`;
  const { data, error } = await anon().auth.signUp({ email: userEmail, password: "correct-horse" });
  if (error) throw error;
  userId = data.user!.id;
  userToken = data.session!.access_token;
  await pool.query(
    `insert into public.test_gw_notes (id, owner, note, is_public) values
       (1, null, 'public note', true), (2, $1, 'my private note', false), (3, gen_random_uuid(), 'someone else''s', false)`,
    [userId],
  );
});

afterAll(async () => {
  await pool.query(TEARDOWN);
  await pool.query("delete from auth.users where email = $1", [userEmail]);
  await pool.end();
});

describe("gateway /rest/v1/rpc with the real supabase-js client", () => {
  it("calls a set-returning function with named arguments and answers a JSON array", async () => {
    const { data, error, status } = await anon().rpc("test_gw_series", { p_from: 2, p_to: 5 });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([2, 3, 4, 5]);
  });

  it("answers rows of a TABLE function as objects; arrays and defaults work", async () => {
    const withTags = await anon().rpc("test_gw_rows", { p_n: 2, p_tags: ["a", "b"] });
    expect(withTags.error).toBeNull();
    expect(withTags.data).toEqual([
      { n: 1, label: "row 1", tags: ["a", "b"] },
      { n: 2, label: "row 2", tags: ["a", "b"] },
    ]);
    const defaults = await anon().rpc("test_gw_rows", { p_n: 1 });
    expect(defaults.data).toEqual([{ n: 1, label: "row 1", tags: [] }]);
    const empty = await anon().rpc("test_gw_rows", { p_n: 0 });
    expect(empty.data).toEqual([]);
  });

  it("answers a scalar function with the bare JSON value; jsonb is returned as-is", async () => {
    const add = await anon().rpc("test_gw_add", { p_a: 40, p_b: 2 });
    expect(add.error).toBeNull();
    expect(add.data).toBe(42);
    const id = randomUUID();
    const echo = await anon().rpc("test_gw_echo", { p_doc: { nested: [1, { deep: true }] }, p_id: id, p_ids: [1, 2, 3] });
    expect(echo.error).toBeNull();
    expect(echo.data).toEqual({ doc: { nested: [1, { deep: true }] }, id, sum: 6, when: null });
  });

  it("calls STABLE/IMMUTABLE functions with GET and refuses VOLATILE ones with 405", async () => {
    const get = await anon().rpc("test_gw_series", { p_from: 1, p_to: 3 }, { get: true });
    expect(get.error).toBeNull();
    expect(get.data).toEqual([1, 2, 3]);
    const arr = await anon().rpc("test_gw_rows", { p_n: 1, p_tags: ["x", "y"] }, { get: true });
    expect(arr.data).toEqual([{ n: 1, label: "row 1", tags: ["x", "y"] }]);
    const volatile = await service().rpc("test_gw_write", { p_note: "via GET" }, { get: true });
    expect(volatile.status).toBe(405);
    expect(volatile.error?.code).toBe("25006");
    const { rows } = await pool.query("select count(*)::int as n from public.test_gw_notes where note = 'via GET'");
    expect(rows[0].n).toBe(0);
  });

  it("answers PGRST202 (404) for an unknown function or unknown argument names", async () => {
    const missing = await anon().rpc("test_gw_does_not_exist", { a: 1 });
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe("PGRST202");
    expect(missing.error?.message).toBe("Could not find the function public.test_gw_does_not_exist(a) in the schema cache");
    const wrongArg = await anon().rpc("test_gw_add", { p_a: 1, p_c: 2 });
    expect(wrongArg.status).toBe(404);
    expect(wrongArg.error?.code).toBe("PGRST202");
    expect(wrongArg.error?.hint).toBe("Perhaps you meant to call the function public.test_gw_add(p_a, p_b)");
    const missingRequired = await anon().rpc("test_gw_add", { p_a: 1 });
    expect(missingRequired.error?.code).toBe("PGRST202");
  });

  it("answers PGRST203 (HTTP 300) when two overloads match", async () => {
    const res = await anon().rpc("test_gw_over", { p_x: 1 });
    expect(res.status).toBe(300);
    expect(res.error?.code).toBe("PGRST203");
    expect(res.error?.message).toContain("Could not choose the best candidate function between:");
    expect(res.error?.message).toContain("public.test_gw_over(p_x => integer)");
    expect(res.error?.message).toContain("public.test_gw_over(p_x => text)");
  });

  it("runs as anon, authenticated or service_role, so RLS decides what a function sees", async () => {
    const asAnon = await anon().rpc("test_gw_visible");
    expect(asAnon.error).toBeNull();
    expect(asAnon.data).toEqual([{ id: 1, note: "public note" }]);
    const asAuth = await asUser(userToken).rpc("test_gw_visible");
    expect(asAuth.data).toEqual([
      { id: 1, note: "public note" },
      { id: 2, note: "my private note" },
    ]);
    const asService = await service().rpc("test_gw_visible");
    expect((asService.data as Array<{ id: number }>).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it("publishes the JWT claims where auth.uid(), auth.role() and auth.jwt() read them", async () => {
    const me = await asUser(userToken).rpc("test_gw_whoami");
    expect(me.data).toEqual({ user: "authenticated", uid: userId, role: "authenticated", email: userEmail, method: "POST" });
    const nobody = await anon().rpc("test_gw_whoami", {}, { get: true });
    expect(nobody.data).toEqual({ user: "anon", uid: null, role: "anon", email: null, method: "GET" });
    const svc = await service().rpc("test_gw_whoami");
    expect(svc.data).toMatchObject({ user: "service_role", role: "service_role", uid: null });
  });

  it("maps RAISE SQLSTATE 'PTxyz' to status xyz and P0001 to 400, keeping message, details and hint", async () => {
    const teapot = await anon().rpc("test_gw_teapot");
    expect(teapot.status).toBe(418);
    expect(teapot.error).toEqual({ code: "PT418", message: "I am a teapot", details: "short and stout", hint: null });
    const raised = await anon().rpc("test_gw_raise", { p_msg: "no such collection" });
    expect(raised.status).toBe(400);
    expect(raised.error).toEqual({ code: "P0001", message: "no such collection", details: null, hint: "try again" });
  });

  it("maps 42501 to 401 for anon and 403 for a signed-in caller", async () => {
    const a = await anon().rpc("test_gw_secret");
    expect(a.status).toBe(401);
    expect(a.error?.code).toBe("42501");
    const u = await asUser(userToken).rpc("test_gw_secret");
    expect(u.status).toBe(403);
    const s = await service().rpc("test_gw_secret");
    expect(s.data).toBe(42);
  });

  it("answers a bad argument value with 400 22P02 and changes nothing", async () => {
    const res = await anon().rpc("test_gw_add", { p_a: "forty", p_b: 2 });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe("22P02");
  });

  it("commits a volatile POST, honours Prefer: tx=rollback, and answers void functions with 204", async () => {
    const written = await service().rpc("test_gw_write", { p_note: "committed" });
    expect(typeof written.data).toBe("number");
    const rolledBack = await service().rpc("test_gw_write", { p_note: "rolled back" }).rollback();
    expect(rolledBack.error).toBeNull();
    const { rows } = await pool.query("select note from public.test_gw_notes where note in ('committed', 'rolled back')");
    expect(rows.map((r) => r.note)).toEqual(["committed"]);
    const nothing = await anon().rpc("test_gw_nothing");
    expect(nothing.status).toBe(204);
    expect(nothing.data).toBeNull();
    expect(nothing.error).toBeNull();
  });

  it("a failed call leaves its pooled connection as it found it: no open transaction, no caller's role for the next", async () => {
    // The gateway sends begin, settings, call and commit in one pipeline (rest/rpc.ts): a call that fails must still
    // end its transaction, answer its own error (not 25P02 of the statements after it) and hand the next caller a
    // connection in no role of the last one. More failures than the pool has connections, so every one is reused.
    const failures = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2 ? asUser(userToken).rpc("test_gw_raise", { p_msg: `no ${i}` }) : anon().rpc("test_gw_add", { p_a: "x", p_b: i }),
      ),
    );
    failures.forEach((f, i) => expect(f.error?.code).toBe(i % 2 ? "P0001" : "22P02"));
    const open = await pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = 'local-gateway' and state like 'idle in transaction%'",
    );
    expect(open.rows[0].n).toBe(0);
    const after = await Promise.all(Array.from({ length: 12 }, () => anon().rpc("test_gw_whoami")));
    for (const a of after) expect(a.data).toMatchObject({ user: "anon", uid: null, role: "anon" });
    const svc = await service().rpc("test_gw_whoami");
    expect(svc.data).toMatchObject({ user: "service_role", uid: null });
  });

  it("refuses a body past 10 MB with 413 PGRST102 and still reads the next call's body whole", async () => {
    const url = `${env.supabaseUrl}/rest/v1/rpc/test_gw_add`;
    const headers = { "content-type": "application/json", apikey: env.anonKey as string };
    const huge = JSON.stringify({ p_a: 1, p_b: 2, pad: "x".repeat(10 * 1024 * 1024) });
    const refused = await fetch(url, { method: "POST", headers, body: huge });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { code: string }).code).toBe("PGRST102");
    const ok = await fetch(url, { method: "POST", headers, body: JSON.stringify({ p_a: 40, p_b: 2 }) });
    expect(await ok.json()).toBe(42);
  });

  it("supports .single() on a set-returning function (PGRST116 when not exactly one row)", async () => {
    const one = await anon().rpc("test_gw_rows", { p_n: 1 }).single();
    expect(one.data).toEqual({ n: 1, label: "row 1", tags: [] });
    const many = await anon().rpc("test_gw_rows", { p_n: 2 }).single();
    expect(many.status).toBe(406);
    expect(many.error?.code).toBe("PGRST116");
  });

  it("demands the apikey (401), rejects a bad bearer (401 PGRST301) and serves no tables (404)", async () => {
    const url = `${env.supabaseUrl}/rest/v1/rpc/test_gw_add`;
    const body = JSON.stringify({ p_a: 1, p_b: 2 });
    const headers = { "content-type": "application/json" };
    const noKey = await fetch(url, { method: "POST", headers, body });
    expect(noKey.status).toBe(401);
    const badBearer = await fetch(url, {
      method: "POST",
      headers: { ...headers, apikey: env.anonKey as string, authorization: "Bearer abc.def.ghi" },
      body,
    });
    expect(badBearer.status).toBe(401);
    expect(((await badBearer.json()) as { code: string }).code).toBe("PGRST301");
    const table = await anon().from("test_gw_notes").select("*");
    expect(table.status).toBe(404);
    expect(table.error?.code).toBe("PGRST205");
    const otherSchema = await client(env.anonKey as string).schema("auth").rpc("uid");
    expect(otherSchema.status).toBe(406);
    expect(otherSchema.error?.code).toBe("PGRST106");
  });
});
