import { afterAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { Browser, TEST_PASSWORD, createUser } from "../helpers/http";
import { anonClient } from "../helpers/supabase";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * A stolen session against a password change (security review, round 3):
 *
 * - POST /api/settings/password ends every other session of the account: a refresh token copied from another
 *   sign-in (or from this browser's own earlier session) is refused afterwards, while the browser that changed the
 *   password stays signed in on a re-issued session cookie.
 * - The Auth server's own password change (PUT /auth/v1/user, what a stolen access token reaches directly) needs a
 *   recent sign-in or the current password, as Supabase's "Secure password change" does.
 */
const pool = adminPool();
const env = stackEnv();

afterAll(async () => {
  await pool.end();
});

async function gateway(path: string, init: { method: string; token?: string; body?: unknown }): Promise<Response> {
  return fetch(`${env.supabaseUrl}/auth/v1${path}`, {
    method: init.method,
    headers: {
      apikey: env.anonKey as string,
      "content-type": "application/json",
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const refresh = (refreshToken: string) => gateway("/token?grant_type=refresh_token", { method: "POST", body: { refresh_token: refreshToken } });

async function sessionIds(userId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>("select id from auth.sessions where user_id = $1 order by created_at", [userId]);
  return rows.map((r) => r.id);
}

describe("POST /api/settings/password", () => {
  it("revokes every other session (their refresh tokens fail) and re-issues the caller's session cookie", async () => {
    const user = await createUser();
    // Session A: the browser that will change the password.
    const a = new Browser();
    expect((await a.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    // Session B: another sign-in (another device, or an attacker who copied it).
    const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
    expect(error).toBeNull();
    const b = data.session!;
    const bSession = decodeJwt(b.access_token).session_id as string;
    const before = await sessionIds(user.id);
    expect(before).toHaveLength(2);
    const aOld = before.find((id) => id !== bSession)!;
    const cookiesBefore = a.cookieNames().map((n) => `${n}=${a.cookie(n)}`).join(";");

    const changed = await a.post("/api/settings/password", { current_password: TEST_PASSWORD, new_password: "a-brand-new-password" });
    expect(changed.status).toBe(204);

    // B's refresh token is dead, and so is its access token at the Auth server (its session is gone).
    const bRefresh = await refresh(b.refresh_token);
    expect(bRefresh.status).toBe(400);
    expect((await gateway("/user", { method: "GET", token: b.access_token })).status).toBe(403);
    // Exactly one session is left, and it is neither B nor A's old one: A's cookie was re-issued.
    const after = await sessionIds(user.id);
    expect(after).toHaveLength(1);
    expect([bSession, aOld]).not.toContain(after[0]);
    expect(a.cookieNames().map((n) => `${n}=${a.cookie(n)}`).join(";")).not.toBe(cookiesBefore);
    // A is still signed in on the new session.
    const profile = await a.get("/api/settings/profile");
    expect(profile.status).toBe(200);
    expect((await profile.json()).email).toBe(user.email);
  });
});

describe("PUT /auth/v1/user with a password (the Auth server's own change)", () => {
  async function signIn(email: string, password: string) {
    const res = await gateway("/token?grant_type=password", { method: "POST", body: { email, password } });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  }

  it("a token of a session started long ago cannot change the password without the current one", async () => {
    const user = await createUser();
    const stolen = await signIn(user.email, user.password);
    const other = await signIn(user.email, user.password);
    // The stolen session began two days ago (kept alive by refreshes); the attacker does not know the password.
    await pool.query("update auth.sessions set created_at = now() - interval '2 days' where id = $1", [decodeJwt(stolen.access_token).session_id]);

    const refused = await gateway("/user", { method: "PUT", token: stolen.access_token, body: { password: "attacker-password-1" } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error_code).toBe("reauthentication_needed");
    const wrong = await gateway("/user", { method: "PUT", token: stolen.access_token, body: { password: "attacker-password-1", current_password: "a-guess-at-it" } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error_code).toBe("current_password_mismatch");
    // The password is unchanged: the owner still signs in with it.
    await signIn(user.email, user.password);

    // With the current password the change goes through, and the other sessions end (GoTrue's behaviour).
    const ok = await gateway("/user", { method: "PUT", token: stolen.access_token, body: { password: "owner-new-password", current_password: user.password } });
    expect(ok.status).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(400);
    await signIn(user.email, "owner-new-password");
  });

  it("a recent sign-in may change it with the token alone (Supabase's rule)", async () => {
    const user = await createUser();
    const fresh = await signIn(user.email, user.password);
    const ok = await gateway("/user", { method: "PUT", token: fresh.access_token, body: { password: "fresh-session-password" } });
    expect(ok.status).toBe(200);
    await signIn(user.email, "fresh-session-password");
  });
});
