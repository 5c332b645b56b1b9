import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, describe, expect, it } from "vitest";
import { stackEnv } from "../helpers/stack";
import { Browser } from "../helpers/http";
import { noRealtime } from "../helpers/supabase";

const sb = (key: string): SupabaseClient =>
  createClient(stackEnv().supabaseUrl as string, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
  });

let token: string;

/**
 * A guest search through the app: the session and its remaining count as the app sees them. (Changed on purpose for
 * issue 12 L11: guest keys now carry the app's LIMITS_KEY_PREFIX, which a meter built in this file cannot know, so
 * the session is minted by the app itself.)
 */
async function guestSearch(cookie: string | null): Promise<{ id: string; remaining: number }> {
  const res = await new Browser().get("/api/search/documents?q=contract", cookie ? { cookie: `guest_session_id=${cookie}` } : {});
  expect(res.status).toBe(200);
  return { id: res.headers.get("x-guest-session-id") as string, remaining: Number(res.headers.get("x-guest-searches-remaining")) };
}

beforeAll(async () => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge");
  const email = `guest-${randomUUID().slice(0, 8)}@example.org`;
  const password = "correct-horse-battery-staple";
  const created = await sb(env.serviceRoleKey as string).auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw new Error(created.error.message);
  const { data, error } = await sb(env.anonKey as string).auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(error?.message);
  token = data.session.access_token;
});

describe("POST /api/guest/convert", () => {
  it("needs a signed-in user", async () => {
    const res = await new Browser().post("/api/guest/convert", {});
    expect(res.status).toBe(401);
  });

  it("deletes the guest session, reports the count and clears the cookie", async () => {
    const { id } = await guestSearch(null);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const headers = { authorization: `Bearer ${token}`, cookie: `guest_session_id=${id}` };
    const res = await new Browser().post("/api/guest/convert", {}, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 1 });
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("guest_session_id="));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/HttpOnly/);
    // Gone: a second convert deletes nothing, and the next search with the old cookie gets a new session.
    expect(await (await new Browser().post("/api/guest/convert", {}, headers)).json()).toEqual({ deleted: 0 });
    const next = await guestSearch(id);
    expect(next.id).not.toBe(id);
    expect(next.remaining).toBe(4);
  });

  it("without a guest cookie reports 0", async () => {
    const res = await new Browser().post("/api/guest/convert", {}, { authorization: `Bearer ${token}` });
    expect(await res.json()).toEqual({ deleted: 0 });
  });
});
