import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { beforeAll, describe, expect, it } from "vitest";
import { GuestMeter, type GuestSession } from "@/lib/backend/guest";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";
import { stackEnv } from "../helpers/stack";
import { Browser } from "../helpers/http";
import { noRealtime } from "../helpers/supabase";

const sb = (key: string): SupabaseClient =>
  createClient(stackEnv().supabaseUrl as string, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
  });

let token: string;
let meter: GuestMeter;

beforeAll(async () => {
  const env = stackEnv();
  if (!env.upstashUrl || !env.upstashToken) throw new Error("the test stack has no Upstash bridge");
  // The same store the app uses (the stack's bridge), so a session minted here is the app's session.
  meter = new GuestMeter(createLimitsStore({ url: env.upstashUrl, token: env.upstashToken, timeoutMs: 2000 }), {
    limit: 5,
    ttlSeconds: 24 * 3600,
    nudgeRemaining: 2,
  });
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
    const { session } = await meter.meter(null, async () => "searched");
    const id = (session as GuestSession).id;
    const headers = { authorization: `Bearer ${token}`, cookie: `guest_session_id=${id}` };
    const res = await new Browser().post("/api/guest/convert", {}, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 1 });
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("guest_session_id="));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/HttpOnly/);
    // Gone: a second convert deletes nothing, and the next search with the old cookie gets a new session.
    expect(await (await new Browser().post("/api/guest/convert", {}, headers)).json()).toEqual({ deleted: 0 });
    const next = await meter.meter(id, async () => "searched");
    expect(next.session?.id).not.toBe(id);
    expect(next.session?.remaining).toBe(4);
  });

  it("without a guest cookie reports 0", async () => {
    const res = await new Browser().post("/api/guest/convert", {}, { authorization: `Bearer ${token}` });
    expect(await res.json()).toEqual({ deleted: 0 });
  });
});
