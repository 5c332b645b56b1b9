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
 * Guest keys now carry the app's LIMITS_KEY_PREFIX, which a meter built in this file cannot know, so
 * the session is minted by the app itself. Changed on purpose for L13: the session id is read from the cookie the
 * app sets, since X-Guest-Session-Id no longer carries it; `publicId` is that header.)
 */
async function guestSearch(cookie: string | null, q = "contract"): Promise<{ id: string; publicId: string; remaining: number }> {
  const b = new Browser();
  if (cookie) b.setCookie("guest_session_id", cookie);
  const res = await b.get(`/api/search/documents?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return {
    id: b.cookie("guest_session_id") as string,
    publicId: res.headers.get("x-guest-session-id") as string,
    remaining: Number(res.headers.get("x-guest-searches-remaining")),
  };
}

describe("X-Guest-Session-Id (security review L13)", () => {
  it("is a stable public id of the session, never the HttpOnly cookie's value", async () => {
    const first = await guestSearch(null);
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.publicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first.publicId).not.toBe(first.id);
    // Same session, same public id (a client can tell when its session changed); another session, another id.
    // Another query: the same one again would not be charged (distinct searches only).
    const again = await guestSearch(first.id, "contract appeal");
    expect(again.id).toBe(first.id);
    expect(again.publicId).toBe(first.publicId);
    expect(again.remaining).toBe(first.remaining - 1);
    const other = await guestSearch(null);
    expect(other.publicId).not.toBe(first.publicId);
    // The public id is not a key to the allowance: presented as the cookie, it is an unknown session and a new one is minted.
    const replay = await guestSearch(first.publicId);
    expect(replay.id).not.toBe(first.publicId);
    expect(replay.remaining).toBe(4);
  });
});

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

describe("the guest allowance counts distinct searches", () => {
  const remaining = (res: Response) => res.headers.get("x-guest-searches-remaining");

  it("paging (offset, limit) and reloading the same search keep X-Guest-Searches-Remaining; another query or filter is charged", async () => {
    const b = new Browser();
    const first = await b.get("/api/search/documents?q=sentence");
    expect(first.status).toBe(200);
    expect(remaining(first)).toBe("4");
    const id = b.cookie("guest_session_id");
    // Reloaded, paged, another page size, the parameters in another order: one search.
    for (const path of [
      "/api/search/documents?q=sentence",
      "/api/search/documents?q=sentence&offset=20",
      "/api/search/documents?offset=40&limit=10&q=sentence",
    ]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(200);
      expect(remaining(res), path).toBe("4");
      expect(res.headers.get("x-guest-upgrade-nudge"), path).toBeNull();
    }
    expect(b.cookie("guest_session_id")).toBe(id);
    // Another query is a new search, and so is the same query with a filter.
    expect(remaining(await b.get("/api/search/documents?q=robbery"))).toBe("3");
    const filtered = await b.get(`/api/search/documents?q=sentence&filter=${encodeURIComponent('jurisdiction = "UK"')}`);
    expect(filtered.status).toBe(200);
    expect(remaining(filtered)).toBe("2");
    expect(filtered.headers.get("x-guest-upgrade-nudge")).toBe("true");
    // Paging the filtered search: still 2, and not nudged a second time.
    const paged = await b.get(`/api/search/documents?q=sentence&filter=${encodeURIComponent('jurisdiction = "UK"')}&offset=20`);
    expect(remaining(paged)).toBe("2");
    expect(paged.headers.get("x-guest-upgrade-nudge")).toBeNull();
  });

  it("with the allowance spent, a new search is refused but a charged one still pages", async () => {
    const b = new Browser();
    for (const [i, q] of ["knife", "theft", "fraud", "burglary", "assault"].entries()) {
      const res = await b.get(`/api/search/documents?q=${q}`);
      expect(res.status, q).toBe(200);
      expect(remaining(res), q).toBe(String(4 - i));
    }
    const refused = await b.get("/api/search/documents?q=murder");
    expect(refused.status).toBe(429);
    expect(remaining(refused)).toBe("0");
    const page2 = await b.get("/api/search/documents?q=knife&offset=20");
    expect(page2.status).toBe(200);
    expect(remaining(page2)).toBe("0");
  });
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
