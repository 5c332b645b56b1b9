import { randomUUID } from "node:crypto";
import {
  createClient,
  isAuthApiError,
  isAuthWeakPasswordError,
  type SupabaseClient,
} from "@supabase/supabase-js";
import { createServerClient } from "@supabase/ssr";
import { createRemoteJWKSet, importJWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { adminPool, stackEnv } from "../helpers/stack";
import { noRealtime } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();
const createdEmails: string[] = [];

function newEmail(): string {
  const email = `gw-auth-${randomUUID()}@example.test`;
  createdEmails.push(email);
  return email;
}

function client(
  key = env.anonKey as string,
  url = env.supabaseUrl as string,
  headers: Record<string, string> = {},
): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
    global: { headers },
  });
}

afterAll(async () => {
  await pool.query("delete from auth.users where email = any($1)", [createdEmails]);
  await pool.end();
});

describe("gateway /auth/v1 with the real supabase-js client", () => {
  it("signs up and answers with a session at once (no e-mail confirmation locally)", async () => {
    const email = newEmail();
    const { data, error } = await client().auth.signUp({ email, password: "correct-horse", options: { data: { name: "Ada" } } });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ name: "Ada" });
    expect(data.user?.app_metadata).toMatchObject({ provider: "email", providers: ["email"] });
    const { rows } = await pool.query("select email_confirmed_at, raw_app_meta_data from auth.users where email = $1", [email]);
    expect(rows[0].email_confirmed_at).not.toBeNull();
    expect(rows[0].raw_app_meta_data).toMatchObject({ provider: "email" });
  });

  it("refuses a duplicate e-mail with 422 user_already_exists", async () => {
    const email = newEmail();
    await client().auth.signUp({ email, password: "correct-horse" });
    const { error } = await client().auth.signUp({ email: email.toUpperCase(), password: "another-one" });
    expect(isAuthApiError(error)).toBe(true);
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("user_already_exists");
  });

  it("refuses a weak password with 422 weak_password and its reasons", async () => {
    const { data, error } = await client().auth.signUp({ email: newEmail(), password: "12345" });
    expect(isAuthWeakPasswordError(error)).toBe(true);
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("weak_password");
    expect(isAuthWeakPasswordError(error) && error.reasons).toEqual(["length"]);
    expect(data.user).toBeNull();
  });

  it("the floor is 10 characters, the app's (security review L4): 9 is weak_password, 10 signs up", async () => {
    const nine = await client().auth.signUp({ email: newEmail(), password: "nine-char" });
    expect(nine.error?.code).toBe("weak_password");
    expect(nine.error?.message).toMatch(/10/);
    const ten = await client().auth.signUp({ email: newEmail(), password: "ten-chars!" });
    expect(ten.error).toBeNull();
    expect(ten.data.user).not.toBeNull();
  });

  it("signs in with a password, recording last_sign_in_at, and refuses bad credentials alike", async () => {
    const email = newEmail();
    await client().auth.signUp({ email, password: "correct-horse" });
    await pool.query("update auth.users set last_sign_in_at = now() - interval '1 day' where email = $1", [email]);
    const ok = await client().auth.signInWithPassword({ email, password: "correct-horse" });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email).toBe(email);
    const { rows } = await pool.query("select now() - last_sign_in_at < interval '1 minute' as recent from auth.users where email = $1", [email]);
    expect(rows[0].recent).toBe(true);

    const wrong = await client().auth.signInWithPassword({ email, password: "wrong-horse" });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect(wrong.error?.message).toBe("Invalid login credentials");
    const unknown = await client().auth.signInWithPassword({ email: `nobody-${randomUUID()}@example.test`, password: "correct-horse" });
    expect(unknown.error?.code).toBe("invalid_credentials");
  });

  it("getUser reads the user behind the access token; getClaims verifies it locally through the JWKS", async () => {
    const email = newEmail();
    const c = client();
    const { data } = await c.auth.signUp({ email, password: "correct-horse" });
    const token = data.session!.access_token;
    const user = await c.auth.getUser(token);
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(data.user!.id);

    const claims = await c.auth.getClaims(token);
    expect(claims.error).toBeNull();
    expect(claims.data?.header).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(claims.data?.claims).toMatchObject({
      sub: data.user!.id,
      aud: "authenticated",
      role: "authenticated",
      email,
      iss: `${env.supabaseUrl}/auth/v1`,
      aal: "aal1",
      is_anonymous: false,
      app_metadata: { provider: "email", providers: ["email"] },
    });
    const c2 = claims.data!.claims;
    expect(c2.exp - c2.iat).toBe(3600);
    expect(typeof c2.session_id).toBe("string");
    expect(c2.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);

    // The JWKS is public, as on Supabase: jose fetches it without an apikey.
    const jwks = createRemoteJWKSet(new URL(`${env.supabaseUrl}/auth/v1/.well-known/jwks.json`));
    const verified = await jwtVerify(token, jwks, { issuer: `${env.supabaseUrl}/auth/v1`, audience: "authenticated" });
    expect(verified.payload.sub).toBe(data.user!.id);

    const [h, p, s] = token.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...c2, role: "service_role" })).toString("base64url")}.${s}`;
    expect(p).not.toBe(tampered.split(".")[1]);
    const bad = await c.auth.getClaims(tampered);
    expect(bad.error).not.toBeNull();
    const badUser = await c.auth.getUser(tampered);
    expect(badUser.error?.status).toBe(403);
    expect(badUser.error?.code).toBe("bad_jwt");
  });

  it("refreshes with rotation; a lost answer is repaired by returning the active token", async () => {
    const c = client();
    const { data } = await c.auth.signUp({ email: newEmail(), password: "correct-horse" });
    const first = data.session!.refresh_token;
    const r1 = await c.auth.refreshSession({ refresh_token: first });
    expect(r1.error).toBeNull();
    const second = r1.data.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(r1.data.session!.access_token).not.toBe(data.session!.access_token);
    // Presenting the parent again (client never stored r1) yields the same active child, not a new token.
    const again = await c.auth.refreshSession({ refresh_token: first });
    expect(again.error).toBeNull();
    expect(again.data.session!.refresh_token).toBe(second);
    const { rows } = await pool.query("select revoked from auth.refresh_tokens where token = $1", [first]);
    expect(rows[0].revoked).toBe(true);
  });

  it("signOut revokes the session: its refresh token and access token stop working", async () => {
    const c = client();
    const { data } = await c.auth.signUp({ email: newEmail(), password: "correct-horse" });
    const session = data.session!;
    await c.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token });
    const out = await c.auth.signOut();
    expect(out.error).toBeNull();
    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.status).toBe(400);
    expect(refreshed.error?.code).toBe("refresh_token_not_found");
    const user = await client().auth.getUser(session.access_token);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    const { rows } = await pool.query("select count(*)::int as n from auth.sessions where user_id = $1", [data.user!.id]);
    expect(rows[0].n).toBe(0);
  });

  it("signOut scope 'others' keeps the current session only", async () => {
    const email = newEmail();
    const a = client();
    await a.auth.signUp({ email, password: "correct-horse" });
    const b = client();
    const sb = await b.auth.signInWithPassword({ email, password: "correct-horse" });
    const sa = await a.auth.signInWithPassword({ email, password: "correct-horse" });
    await a.auth.setSession(sa.data.session!);
    expect((await a.auth.signOut({ scope: "others" })).error).toBeNull();
    expect((await client().auth.getUser(sa.data.session!.access_token)).error).toBeNull();
    expect((await client().auth.getUser(sb.data.session!.access_token)).error?.name).toBe("AuthSessionMissingError");
  });

  it("updateUser merges user_metadata and changes the password", async () => {
    const email = newEmail();
    const c = client();
    const { data } = await c.auth.signUp({ email, password: "correct-horse", options: { data: { a: 1, b: 2 } } });
    await c.auth.setSession(data.session!);
    const upd = await c.auth.updateUser({ data: { b: null, c: 3 } });
    expect(upd.error).toBeNull();
    expect(upd.data.user?.user_metadata).toEqual({ a: 1, c: 3 });
    const same = await c.auth.updateUser({ password: "correct-horse" });
    expect(same.error?.code).toBe("same_password");
    const pw = await c.auth.updateUser({ password: "battery-staple" });
    expect(pw.error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "correct-horse" })).error?.code).toBe("invalid_credentials");
    expect((await client().auth.signInWithPassword({ email, password: "battery-staple" })).error).toBeNull();
  });

  it("works through @supabase/ssr's cookie-based server client (PKCE flow)", async () => {
    const jar = new Map<string, string>();
    const serverClient = () =>
      createServerClient(env.supabaseUrl as string, env.anonKey as string, {
        cookies: {
          getAll: () => [...jar].map(([name, value]) => ({ name, value })),
          setAll: (cookies) => {
            for (const c of cookies) {
              if (c.value) jar.set(c.name, c.value);
              else jar.delete(c.name);
            }
          },
        },
        realtime: noRealtime,
      });
    const email = newEmail();
    const signUp = await serverClient().auth.signUp({ email, password: "correct-horse" });
    expect(signUp.error).toBeNull();
    jar.clear();
    const signIn = await serverClient().auth.signInWithPassword({ email, password: "correct-horse" });
    expect(signIn.error).toBeNull();
    expect([...jar.keys()].some((k) => k.startsWith("sb-") && k.includes("-auth-token"))).toBe(true);
    // A later request: a fresh client that only has the cookies.
    const later = serverClient();
    const claims = await later.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.email).toBe(email);
    const user = await later.auth.getUser();
    expect(user.data.user?.email).toBe(email);
    expect((await later.auth.signOut()).error).toBeNull();
    expect([...jar.keys()].some((k) => k.includes("-auth-token"))).toBe(false);
  });

  it("admin API: create (with app_metadata.role), list, get, delete with the service key", async () => {
    const admin = client(env.serviceRoleKey);
    const email = newEmail();
    const created = await admin.auth.admin.createUser({
      email,
      password: "correct-horse",
      email_confirm: true,
      app_metadata: { role: "admin" },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.app_metadata).toMatchObject({ provider: "email", role: "admin" });

    const signIn = await client().auth.signInWithPassword({ email, password: "correct-horse" });
    const claims = await client().auth.getClaims(signIn.data.session!.access_token);
    expect(claims.data?.claims.app_metadata).toMatchObject({ role: "admin", provider: "email" });

    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 1000 });
    expect(list.error).toBeNull();
    expect(list.data.users.some((u) => u.id === id)).toBe(true);
    const one = await admin.auth.admin.getUserById(id);
    expect(one.data.user?.email).toBe(email);

    const dup = await admin.auth.admin.createUser({ email, password: "correct-horse" });
    expect(dup.error?.status).toBe(422);
    expect(dup.error?.code).toBe("email_exists");

    const del = await admin.auth.admin.deleteUser(id);
    expect(del.error).toBeNull();
    const { rows } = await pool.query("select count(*)::int as n from auth.users where id = $1", [id]);
    expect(rows[0].n).toBe(0);
    const gone = await admin.auth.admin.getUserById(id);
    expect(gone.error?.status).toBe(404);
  });

  it("admin API refuses the anon key and user tokens with 403 not_admin", async () => {
    const anon = client();
    const create = await anon.auth.admin.createUser({ email: newEmail(), password: "correct-horse" });
    expect(create.error?.status).toBe(403);
    expect(create.error?.code).toBe("not_admin");
    const list = await anon.auth.admin.listUsers();
    expect(list.error?.status).toBe(403);
    const { data } = await anon.auth.signUp({ email: newEmail(), password: "correct-horse" });
    const asUser = client(env.anonKey, env.supabaseUrl, { Authorization: `Bearer ${data.session!.access_token}` });
    const del = await asUser.auth.admin.deleteUser(data.user!.id);
    expect(del.error?.status).toBe(403);
  });

  it("demands a valid apikey on every route but the JWKS", async () => {
    const url = env.supabaseUrl as string;
    const none = await fetch(`${url}/auth/v1/settings`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: "No API key found in request" });
    const forged = await fetch(`${url}/auth/v1/settings`, { headers: { apikey: "not.a.key" } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ message: "Invalid API key" });
    const settings = await fetch(`${url}/auth/v1/settings`, { headers: { apikey: env.anonKey as string } });
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ external: { email: true }, mailer_autoconfirm: true });
    const jwks = await fetch(`${url}/auth/v1/.well-known/jwks.json`);
    const body = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    expect(body.keys[0].d).toBeUndefined();
  });

  it("answers GoTrue's legacy error shape without the API version header", async () => {
    const res = await fetch(`${env.supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: env.anonKey as string, "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.test", password: "x" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials" });
    const versioned = await fetch(`${env.supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: env.anonKey as string, "content-type": "application/json", "X-Supabase-Api-Version": "2024-01-01" },
      body: JSON.stringify({ email: "nobody@example.test", password: "x" }),
    });
    expect(versioned.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await versioned.json()).toEqual({ code: "invalid_credentials", message: "Invalid login credentials" });
  });
});

describe("gateway /auth/v1 token lifetimes (own gateway instance with its own keys)", () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let keys: Awaited<ReturnType<typeof generateLocalKeys>>;

  beforeAll(async () => {
    keys = await generateLocalKeys("http://127.0.0.1");
    gw = await startGateway({
      port: 0,
      databaseUrl: env.databaseUrl,
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      refreshTokenReuseIntervalSeconds: 0,
    });
  });
  afterAll(() => gw.close());

  it("refuses to start with keys its signing key did not sign", async () => {
    const other = await generateLocalKeys("http://127.0.0.1");
    await expect(
      startGateway({ ...{ port: 0, databaseUrl: env.databaseUrl, upstashToken: "t" }, privateJwk: keys.privateJwk, anonKey: other.anonKey, serviceRoleKey: keys.serviceRoleKey }),
    ).rejects.toThrow(/anon key/);
  });

  it("reusing a rotated refresh token after the reuse interval fails and revokes the whole session", async () => {
    const c = client(keys.anonKey, gw.url);
    const { data } = await c.auth.signUp({ email: newEmail(), password: "correct-horse" });
    const first = data.session!.refresh_token;
    const r1 = await c.auth.refreshSession({ refresh_token: first });
    const second = r1.data.session!.refresh_token;
    const r2 = await c.auth.refreshSession({ refresh_token: second });
    expect(r2.error).toBeNull();
    const reuse = await c.auth.refreshSession({ refresh_token: first });
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe("refresh_token_already_used");
    // The family is revoked: even the newest token is now refused.
    const newest = await c.auth.refreshSession({ refresh_token: r2.data.session!.refresh_token });
    expect(newest.error?.code).toBe("refresh_token_already_used");
  });

  it("answers an expired access token with 403 bad_jwt", async () => {
    const c = client(keys.anonKey, gw.url);
    const { data } = await c.auth.signUp({ email: newEmail(), password: "correct-horse" });
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ sub: data.user!.id, role: "authenticated", aud: "authenticated" })
      .setProtectedHeader({ alg: "ES256", kid: keys.privateJwk.kid, typ: "JWT" })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(await importJWK(keys.privateJwk, "ES256"));
    const res = await fetch(`${gw.url}/auth/v1/user`, {
      headers: { apikey: keys.anonKey, authorization: `Bearer ${expired}`, "X-Supabase-Api-Version": "2024-01-01" },
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("bad_jwt");
    expect(body.message).toMatch(/expired/);
  });

  it("a token signed by the stack's other key is not accepted here", async () => {
    const res = await fetch(`${gw.url}/auth/v1/user`, { headers: { apikey: env.anonKey as string } });
    expect(res.status).toBe(401);
  });
});
