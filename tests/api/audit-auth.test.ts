import { afterAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { Browser, createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/http";

/**
 * The auth routes' side effects, end to end over HTTP.
 */
const pool = adminPool();

afterAll(async () => {
  await pool.end();
});

async function signedOutEvents(userId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "select count(*)::int as n from public.app_events where user_id = $1 and name = 'auth_signed_out'",
    [userId],
  );
  return rows[0].n;
}

/** The event is written after the response (`after()`): wait, bounded, for it to appear. */
async function waitForSignedOut(userId: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const n = await signedOutEvents(userId);
    if (n > 0) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
  return signedOutEvents(userId);
}

describe("POST /api/auth/sign-out records auth_signed_out (R-EVT-027, D-25)", () => {
  it("stores exactly one auth_signed_out row for the user, with no properties, and none for a caller without a session", async () => {
    const user = await createUser();
    const b = new Browser();
    expect((await b.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    const out = await b.post("/api/auth/sign-out");
    expect(await out.json()).toEqual({ signed_out: true });
    expect(await waitForSignedOut(user.id)).toBe(1);

    // Signing out again (no session now) emits nothing: a second real sign-out is the marker that it would have.
    expect(await (await b.post("/api/auth/sign-out")).json()).toEqual({ signed_out: false });
    const again = new Browser();
    await again.post("/api/auth/sign-in", { email: user.email, password: user.password });
    await again.post("/api/auth/sign-out");
    for (let i = 0; i < 100 && (await signedOutEvents(user.id)) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await signedOutEvents(user.id)).toBe(2);

    const { rows } = await pool.query<{ surface: string; properties: unknown }>(
      "select surface, properties from public.app_events where user_id = $1 and name = 'auth_signed_out'",
      [user.id],
    );
    for (const r of rows) expect(r).toEqual({ surface: "web", properties: {} });
  });
});

describe("POST /api/auth/sign-up ends the guest session (R-STA-016)", () => {
  const search = (b: Browser) => b.get("/api/search/documents?q=court");

  it("a visitor who spent guest searches, signs up and signs out again does not keep the spent allowance", async () => {
    const b = new Browser();
    const first = await search(b);
    expect(first.status).toBe(200);
    const limit = Number(first.headers.get("x-guest-search-limit"));
    const guestId = b.cookie("guest_session_id");
    // Changed on purpose (security review L13): the header is a public id derived from the session, not the cookie.
    expect(guestId).toMatch(/^[0-9a-f-]{36}$/);
    const publicId = first.headers.get("x-guest-session-id");
    expect(publicId).not.toBe(guestId);
    // Another query: the same one again would not be charged (distinct searches only).
    const second = await b.get("/api/search/documents?q=court%20appeal");
    expect(Number(second.headers.get("x-guest-searches-remaining"))).toBe(limit - 2);

    const up = await b.post("/api/auth/sign-up", { email: uniqueEmail("audit-convert"), password: TEST_PASSWORD });
    expect(up.status).toBe(201);
    expect((await up.json()).signedIn).toBe(true);
    // The cookie is cleared in the same response, as POST /api/guest/convert clears it.
    const cleared = up.headers.getSetCookie().find((c) => c.startsWith("guest_session_id="));
    // Removed, not just emptied (Next keeps Expires when it re-serialises the header; it drops a zero Max-Age).
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(b.cookie("guest_session_id")).toBeUndefined();

    expect((await b.post("/api/auth/sign-out")).status).toBe(200);
    // Even presenting the old cookie again, the spent session is gone: a fresh one is minted with the full allowance.
    b.setCookie("guest_session_id", guestId as string);
    const after = await search(b);
    expect(after.status).toBe(200);
    expect(b.cookie("guest_session_id")).not.toBe(guestId);
    expect(after.headers.get("x-guest-session-id")).not.toBe(publicId);
    expect(Number(after.headers.get("x-guest-searches-remaining"))).toBe(limit - 1);
  });

  it("a sign-up without a guest cookie sets no guest cookie", async () => {
    const b = new Browser();
    const up = await b.post("/api/auth/sign-up", { email: uniqueEmail("audit-noguest"), password: TEST_PASSWORD });
    expect(up.status).toBe(201);
    expect(up.headers.getSetCookie().some((c) => c.startsWith("guest_session_id="))).toBe(false);
  });
});
