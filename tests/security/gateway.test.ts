import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/http";
import { guardedState, makeVictim, type Victim } from "../helpers/security-fixtures";
import { FORGERY_NAMES, forgeTokens, type Forgery } from "../helpers/security-tokens";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient } from "../helpers/supabase";

/**
 * The gateway attacked directly (it stands in for Supabase Auth and PostgREST, and holds the data):
 * forged JWTs on /auth/v1/user and /rest/v1/rpc/*, the anon key used as a bearer on every function anon may not
 * execute (the list read from Postgres grants, not kept by hand), a forged service-role project key, role claims that
 * name a database superuser, the admin API with a user's token, table endpoints, and the Upstash bridge token.
 */

const pool = adminPool();
let victim: Victim;
let forgeries: Forgery[];
let before: Awaited<ReturnType<typeof guardedState>>;
const gw = (path: string) => new URL(path, stackEnv().supabaseUrl as string).toString();
const anonKey = () => stackEnv().anonKey as string;
const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** Functions of the API schema that the anon role may not execute (the ones only users or the service role may). */
let anonDenied: string[] = [];
/** Functions users may execute that act on the caller's own rows. */
let userFunctions: string[] = [];
/** Input argument names per function: every call names them all (null), so it reaches the grant check, not a 404. */
const argsOf = new Map<string, string[]>();

beforeAll(async () => {
  victim = await makeVictim(pool, "gateway");
  forgeries = await forgeTokens(victim.token);
  // Every callable function of the exposed schema with its input argument names (trigger functions are not callable).
  const { rows } = await pool.query<{ name: string; args: string[]; anon: boolean; user: boolean }>(
    `select p.proname as name,
            case when p.proargnames is null then '{}'::text[] else coalesce((select array_agg(a.n order by a.o)
                        from unnest(p.proargnames, coalesce(p.proargmodes, array_fill('i'::"char", array[cardinality(p.proargnames)])))
                             with ordinality as a(n, m, o)
                       where a.m in ('i', 'b', 'v')), '{}') end as args,
            has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
            has_function_privilege('authenticated', p.oid, 'EXECUTE') as user
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
      order by 1`,
  );
  for (const r of rows) argsOf.set(r.name, r.args);
  anonDenied = rows.filter((r) => !r.anon).map((r) => r.name);
  userFunctions = rows.filter((r) => r.user && !r.anon).map((r) => r.name);
  before = await guardedState(pool, [victim.id]);
}, 60_000);

afterAll(async () => {
  expect(await guardedState(pool, [victim.id])).toEqual(before);
  await pool.end();
});

async function rpc(name: string, headers: Record<string, string>) {
  const body = Object.fromEntries((argsOf.get(name) ?? []).map((a) => [a, null]));
  return fetch(gw(`/rest/v1/rpc/${name}`), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("forged bearers on the gateway (each carries the victim's claims)", () => {
  const each = FORGERY_NAMES.map((name, i) => [name, i] as const);

  it.each(each)("%s: /auth/v1/user refuses it (401/403) and reveals no user", async (_, i) => {
    const f = forgeries[i];
    const res = await fetch(gw("/auth/v1/user"), { headers: { apikey: anonKey(), authorization: `Bearer ${f.token}` } });
    expect([401, 403], f.name).toContain(res.status);
    expect(JSON.stringify(await res.json()), f.name).not.toContain(victim.email);
  });

  it.each(each)("%s: /rest/v1/rpc on the victim's own-rows functions → 401, no rows", async (_, i) => {
    const f = forgeries[i];
    expect(userFunctions.length).toBeGreaterThan(0);
    for (const name of userFunctions) {
      const res = await rpc(name, { apikey: anonKey(), authorization: `Bearer ${f.token}` });
      expect(res.status, `${f.name} → ${name}`).toBe(401);
      expect(JSON.stringify(await res.json())).not.toContain(victim.collectionId);
    }
  });

  it.each(each)("%s as the apikey itself → 401 Invalid API key", async (_, i) => {
    const f = forgeries[i];
    const res = await fetch(gw("/auth/v1/user"), { headers: { apikey: f.token, authorization: `Bearer ${victim.token}` } });
    expect(res.status, f.name).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Invalid API key" });
  });
});

describe("the project keys misused", () => {
  it("anon key as bearer: every function anon may not execute → refused (401/403 42501), derived from the grants", async () => {
    expect(anonDenied.length).toBeGreaterThan(5);
    for (const name of anonDenied) {
      const res = await rpc(name, { apikey: anonKey(), authorization: `Bearer ${anonKey()}` });
      expect([401, 403], name).toContain(res.status);
      expect(await res.json(), name).toMatchObject({ code: "42501" });
    }
  });

  it("anon key as bearer on /auth/v1/user → refused, no user", async () => {
    const res = await fetch(gw("/auth/v1/user"), { headers: { apikey: anonKey(), authorization: `Bearer ${anonKey()}` } });
    expect([401, 403]).toContain(res.status);
  });

  it("service-role key as a user bearer on /auth/v1/user → refused (it names no user)", async () => {
    const res = await fetch(gw("/auth/v1/user"), { headers: { apikey: anonKey(), authorization: `Bearer ${stackEnv().serviceRoleKey}` } });
    expect([401, 403]).toContain(res.status);
  });

  it("a forged alg-none service-role project key → 401 Invalid API key on auth, admin and rest", async () => {
    const forged = `${part({ alg: "none", typ: "JWT" })}.${part({ role: "service_role", iss: "supabase", exp: 4102444800 })}.`;
    for (const path of ["/auth/v1/admin/users", "/auth/v1/user", "/rest/v1/rpc/list_collections"]) {
      const res = await fetch(gw(path), { headers: { apikey: forged, authorization: `Bearer ${forged}` } });
      expect(res.status, path).toBe(401);
      expect(await res.json()).toMatchObject({ message: "Invalid API key" });
    }
  });

  it("a bearer whose role claim names a database superuser is never switched to (forged: 401; unknown role: 403)", async () => {
    const forged = `${part({ alg: "none", typ: "JWT" })}.${part({ role: "postgres", sub: victim.id, exp: 4102444800 })}.`;
    const res = await rpc("list_collections", { apikey: anonKey(), authorization: `Bearer ${forged}` });
    expect(res.status).toBe(401);
  });

  it("a signed-in user's genuine token on the admin API → 403, the user list stays hidden", async () => {
    for (const [method, path] of [["GET", "/auth/v1/admin/users"], ["DELETE", `/auth/v1/admin/users/${victim.id}`], ["PUT", `/auth/v1/admin/users/${victim.id}`]] as const) {
      const res = await fetch(gw(path), {
        method,
        headers: { apikey: anonKey(), authorization: `Bearer ${victim.token}`, "content-type": "application/json" },
        body: method === "PUT" ? JSON.stringify({ app_metadata: { role: "admin" } }) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it("a user cannot make themself admin through PUT /auth/v1/user (app_metadata is not user-writable)", async () => {
    const user = await createUser();
    const { data } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
    const token = data.session?.access_token as string;
    await fetch(gw("/auth/v1/user"), {
      method: "PUT",
      headers: { apikey: anonKey(), authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ app_metadata: { role: "admin" }, role: "service_role" }),
    });
    const { rows } = await pool.query<{ app: Record<string, unknown>; role: string }>(
      "select raw_app_meta_data as app, role from auth.users where id = $1",
      [user.id],
    );
    expect(rows[0].app.role).not.toBe("admin");
    expect(rows[0].role).toBe("authenticated");
  });

  it("table endpoints are not served, with any key: /rest/v1/<table> → 404", async () => {
    for (const table of ["judgments", "collections", "collection_documents", "app_events", "search_analytics", "api_keys"]) {
      for (const key of [anonKey(), stackEnv().serviceRoleKey as string]) {
        const res = await fetch(gw(`/rest/v1/${table}?select=*`), { headers: { apikey: key, authorization: `Bearer ${key}` } });
        expect(res.status, table).toBe(404);
      }
    }
  });

  it("the Upstash bridge refuses the project keys, a forged token and none (401)", async () => {
    for (const token of [anonKey(), stackEnv().serviceRoleKey as string, "x", undefined]) {
      const res = await fetch(gw("/upstash"), {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(["KEYS", "*"]),
      });
      expect(res.status).toBe(401);
    }
  });
});
