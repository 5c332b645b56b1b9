/**
 * At the gateway: sessions end like Supabase's (time-box, inactivity timeout; M2) and the
 * database pool neither waits forever nor turns "no database" into a 500 (M3, M4). Real gateway, real Postgres (through
 * a fault proxy where the test breaks the link), real supabase-js.
 */
import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayHandle } from "../../supabase/local/gateway";
import { generateLocalKeys, type LocalKeys } from "../../supabase/local/keys";
import { hostPort, startFaultProxy, viaProxy, type FaultProxy } from "../helpers/fault-proxy";
import { adminPool, stackEnv } from "../helpers/stack";
import { noRealtime } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();
const emails: string[] = [];
/** A schema of this file's own, exposed only by the gateway started below: a function that sleeps. */
const SCHEMA = `faults_gw_${randomUUID().slice(0, 8)}`;

function client(key: string, url: string): SupabaseClient {
  return createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false }, realtime: noRealtime });
}

afterAll(async () => {
  await pool.query("delete from auth.users where email = any($1)", [emails]);
  await pool.query(`drop schema if exists ${SCHEMA} cascade`);
  await pool.end();
});

describe("sessions expire like Supabase's (the test stack's gateway: 7-day time-box, 24 h inactivity timeout)", () => {
  async function signedIn(): Promise<{ c: SupabaseClient; refresh: string; sessionId: string }> {
    const c = client(env.anonKey as string, env.supabaseUrl as string);
    const email = `gw-faults-${randomUUID()}@example.test`;
    emails.push(email);
    const { data, error } = await c.auth.signUp({ email, password: "correct-horse" });
    expect(error).toBeNull();
    const claims = JSON.parse(Buffer.from(data.session!.access_token.split(".")[1], "base64url").toString()) as { session_id: string };
    return { c, refresh: data.session!.refresh_token, sessionId: claims.session_id };
  }

  it("a session refreshed within the limits keeps working", async () => {
    const { c, refresh, sessionId } = await signedIn();
    await pool.query("update auth.sessions set created_at = now() - interval '6 days', updated_at = now() - interval '23 hours' where id = $1", [sessionId]);
    const { data, error } = await c.auth.refreshSession({ refresh_token: refresh });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
  });

  it("not refreshed for more than 24 h → 400 session_expired (Inactivity); the session cannot be revived", async () => {
    const { c, refresh, sessionId } = await signedIn();
    await pool.query("update auth.sessions set updated_at = now() - interval '25 hours' where id = $1", [sessionId]);
    const { data, error } = await c.auth.refreshSession({ refresh_token: refresh });
    expect(data.session).toBeNull();
    expect([error?.status, error?.code, error?.message]).toEqual([400, "session_expired", "Invalid Refresh Token: Session Expired (Inactivity)"]);
  });

  it("older than the 7-day time-box → 400 session_expired, even when refreshed a minute ago", async () => {
    const { c, refresh, sessionId } = await signedIn();
    await pool.query("update auth.sessions set created_at = now() - interval '7 days 1 minute', updated_at = now() - interval '1 minute' where id = $1", [sessionId]);
    const { error } = await c.auth.refreshSession({ refresh_token: refresh });
    expect([error?.status, error?.code, error?.message]).toEqual([400, "session_expired", "Invalid Refresh Token: Session Expired"]);
  });

  it("past its not_after → 400 session_expired", async () => {
    const { c, refresh, sessionId } = await signedIn();
    await pool.query("update auth.sessions set not_after = now() - interval '1 second' where id = $1", [sessionId]);
    const { error } = await c.auth.refreshSession({ refresh_token: refresh });
    expect([error?.status, error?.code]).toEqual([400, "session_expired"]);
  });
});

describe("the gateway's pool: connection time-out and answers without a database", () => {
  let pgProxy: FaultProxy;
  let gw: GatewayHandle;
  let keys: LocalKeys;
  const log: string[] = [];

  const rpc = (fn: string, body: unknown, schema?: string) =>
    fetch(`${gw.url}/rest/v1/rpc/${fn}`, {
      method: "POST",
      headers: { apikey: keys.anonKey, "content-type": "application/json", ...(schema ? { "content-profile": schema } : {}) },
      body: JSON.stringify(body),
    });
  const answer = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];

  beforeAll(async () => {
    await pool.query(`create schema ${SCHEMA}`);
    await pool.query(`create function ${SCHEMA}.sleep_ms(ms int) returns int language sql volatile as $$ select pg_sleep(ms / 1000.0); select ms $$`);
    await pool.query(`grant usage on schema ${SCHEMA} to anon; grant execute on function ${SCHEMA}.sleep_ms(int) to anon`);
    pgProxy = await startFaultProxy(hostPort(env.databaseUrl));
    keys = await generateLocalKeys("http://127.0.0.1");
    gw = await startGateway({
      port: 0,
      databaseUrl: viaProxy(env.databaseUrl, pgProxy),
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      exposedSchemas: ["public", SCHEMA],
      poolSize: 1,
      poolConnectionTimeoutMs: 300,
      statementTimeoutMs: 1500,
      log: (l) => log.push(l),
    });
  });
  afterAll(async () => {
    await gw?.close();
    await pgProxy?.close();
  });

  it("answers normally while the link passes", async () => {
    expect(await (await rpc("sleep_ms", { ms: 1 }, SCHEMA)).json()).toBe(1);
  });

  it("Postgres refusing → 503 PGRST000 (was 500 PGRSTX00 from the function lookup)", async () => {
    pgProxy.set("refuse");
    try {
      expect(await answer(await rpc("sleep_ms", { ms: 1 }, SCHEMA))).toEqual([503, "PGRST000"]);
    } finally {
      pgProxy.set("pass");
    }
    expect(await (await rpc("sleep_ms", { ms: 2 }, SCHEMA)).json()).toBe(2);
  });

  it("Postgres not answering → 503 PGRST000 after the connection time-out (was: waits forever)", async () => {
    pgProxy.set("hang");
    try {
      expect(await answer(await rpc("sleep_ms", { ms: 1 }, SCHEMA))).toEqual([503, "PGRST000"]);
    } finally {
      pgProxy.set("pass");
    }
    expect(log.some((l) => /database unreachable|Connection terminated/.test(l))).toBe(true);
  });

  it("every pooled connection busy past the connection time-out → 504 PGRST003, as PostgREST answers", async () => {
    const busy = rpc("sleep_ms", { ms: 1200 }, SCHEMA);
    // Wait until the one pooled connection is really running the sleep before asking for another.
    for (let i = 0; i < 200; i++) {
      const { rows } = await pool.query("select 1 from pg_stat_activity where application_name = 'local-gateway' and query like '%sleep_ms%' and state = 'active'");
      if (rows.length) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await answer(await rpc("sleep_ms", { ms: 1 }, SCHEMA))).toEqual([504, "PGRST003"]);
    expect(await (await busy).json()).toBe(1200);
  });

  it("a statement past statement_timeout → 57014 with its message (the app maps it to 504 UPSTREAM_TIMEOUT)", async () => {
    const res = await rpc("sleep_ms", { ms: 10_000 }, SCHEMA);
    const body = (await res.json()) as { code: string; message: string };
    expect([res.status, body.code, body.message]).toEqual([500, "57014", "canceling statement due to statement timeout"]);
  });
});
