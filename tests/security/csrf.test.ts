import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createUser } from "../helpers/http";
import { bodyFor, guardedState, makeVictim, ownOrigin, type Victim } from "../helpers/security-fixtures";
import { apiRoutes, fillPath, isWrite, key, type RouteHandler } from "../helpers/security-routes";
import { adminPool } from "../helpers/stack";

/**
 * CSRF: every write route (derived from app/api; public ones such as sign-in, sign-up, sign-out and
 * events included) sent with the victim's session cookie the ways another site can make a browser send it — a
 * cross-site Origin, `Sec-Fetch-Site: cross-site`, `Origin: null`, look-alike origins, and the content types a plain
 * HTML form can post (text/plain, urlencoded, multipart). Each must be refused before any handler runs (403
 * CSRF_REJECTED, or 415 when the page is same-site but the body is not JSON), and reading back shows nothing changed:
 * the victim's data, the victim still signed in as themself, no account planted.
 */

const pool = adminPool();
let victim: Victim;
let before: Awaited<ReturnType<typeof guardedState>>;
const ATTACKER_EMAIL = `csrf-attacker-${Date.now()}@example.org`;

const WRITES = apiRoutes().filter(isWrite);

type Variant = { name: string; expect: 403 | 415; headers: () => Record<string, string>; body: "json" | "text" | "form" | "multipart" | "none" };

const evil = "https://evil.example";
const VARIANTS: Variant[] = [
  { name: "JSON, cross-site Origin and Sec-Fetch-Site", expect: 403, body: "json", headers: () => ({ origin: evil, "sec-fetch-site": "cross-site" }) },
  { name: "JSON, cross-site Origin only", expect: 403, body: "json", headers: () => ({ origin: evil }) },
  { name: "JSON, Sec-Fetch-Site: cross-site only", expect: 403, body: "json", headers: () => ({ "sec-fetch-site": "cross-site" }) },
  { name: "text/plain form body, cross-site", expect: 403, body: "text", headers: () => ({ origin: evil, "sec-fetch-site": "cross-site" }) },
  { name: "urlencoded form body, cross-site", expect: 403, body: "form", headers: () => ({ origin: evil, "sec-fetch-site": "cross-site" }) },
  { name: "multipart form body, cross-site", expect: 403, body: "multipart", headers: () => ({ origin: evil, "sec-fetch-site": "cross-site" }) },
  { name: "JSON, Origin: null (sandboxed frame)", expect: 403, body: "json", headers: () => ({ origin: "null" }) },
  { name: "JSON, look-alike origin (our host as a subdomain of the attacker's)", expect: 403, body: "json", headers: () => ({ origin: `http://${new URL(ownOrigin()).hostname}.evil.example:${new URL(ownOrigin()).port}` }) },
  { name: "JSON, our host on another port", expect: 403, body: "json", headers: () => ({ origin: `http://${new URL(ownOrigin()).hostname}:${Number(new URL(ownOrigin()).port) + 1}` }) },
  { name: "JSON, look-alike carrying our host as userinfo", expect: 403, body: "json", headers: () => ({ origin: `http://${new URL(ownOrigin()).host}@evil.example` }) },
  { name: "text/plain from a browser that sends no Origin (same-site or old)", expect: 415, body: "text", headers: () => ({}) },
  { name: "urlencoded from a browser that sends no Origin", expect: 415, body: "form", headers: () => ({}) },
  { name: "a body with no Content-Type at all", expect: 415, body: "none", headers: () => ({}) },
  { name: "text/plain smuggling application/json as a parameter", expect: 415, body: "json", headers: () => ({ "content-type": "text/plain; application/json" }) },
];

function encode(kind: Variant["body"], value: unknown): { payload: string; contentType?: string } {
  const json = JSON.stringify(value);
  switch (kind) {
    case "json":
      return { payload: json, contentType: "application/json" };
    case "text":
      // <form enctype="text/plain"> with name='{"a":"…' value='"}' sends exactly a JSON text.
      return { payload: json, contentType: "text/plain" };
    case "form":
      return { payload: `payload=${encodeURIComponent(json)}`, contentType: "application/x-www-form-urlencoded" };
    case "multipart":
      return {
        payload: `--b0undary\r\ncontent-disposition: form-data; name="payload"\r\n\r\n${json}\r\n--b0undary--\r\n`,
        contentType: "multipart/form-data; boundary=b0undary",
      };
    case "none":
      return { payload: json };
  }
}

/** The victim's browser on the attacker's page: the victim's cookies, a source address of its own. */
function victimsBrowser(): Browser {
  const b = new Browser();
  for (const n of victim.browser.cookieNames()) b.setCookie(n, victim.browser.cookie(n));
  return b;
}

function attack(h: RouteHandler, v: Variant): Promise<Response> {
  const path = fillPath(h.template, { id: victim.collectionId });
  const value = h.template.endsWith("/sign-up") ? { email: ATTACKER_EMAIL, password: "attacker-password=" } : bodyFor(h.method, h.template, victim);
  const { payload, contentType } = encode(v.body, value);
  // Browser.request sends JSON by default for writes: an explicit content-type overrides it, "none" removes it.
  const headers: Record<string, string> = { ...(contentType ? { "content-type": contentType } : {}), ...v.headers() };
  if (v.body === "none") headers["content-type"] = "";
  return victimsBrowser().request(h.method, path, payload, headers);
}

beforeAll(async () => {
  victim = await makeVictim(pool, "csrf");
  before = await guardedState(pool, [victim.id]);
}, 60_000);

afterAll(async () => {
  // after() work (events) has had time to run by now; nothing changed, nobody was signed in or out, nothing planted.
  await new Promise((r) => setTimeout(r, 500));
  expect(await guardedState(pool, [victim.id])).toEqual(before);
  const me = (await (await victim.browser.get("/api/auth/me")).json()) as { user: { id: string } | null };
  expect(me.user?.id).toBe(victim.id);
  const { rows } = await pool.query("select 1 from auth.users where lower(email) = lower($1)", [ATTACKER_EMAIL]);
  expect(rows).toHaveLength(0);
  await pool.end();
});

describe("the map of write routes this file attacks", () => {
  it("holds every write handler: collections, auth, events, extractions, the reference API and the catch-all", () => {
    expect(WRITES.map(key)).toEqual(
      expect.arrayContaining([
        "POST /api/collections", "PATCH /api/collections/[id]", "DELETE /api/collections/[id]", "POST /api/auth/sign-in",
        "POST /api/auth/sign-up", "POST /api/auth/sign-out", "POST /api/events", "POST /api/[...path]",
        "POST /api/v1/extractions/base-schema/filter",
      ]),
    );
  });
});

describe.each(VARIANTS.map((v) => [v.name, v] as const))("CSRF: %s", (_, v) => {
  it.each(WRITES.map((h) => [key(h), h] as const))(`%s → ${v.expect}`, async (_, h) => {
    const res = await attack(h, v);
    expect(res.status, `${v.name} on ${key(h)}`).toBe(v.expect);
    const body = (await res.json()) as { detail?: { code?: string }; details?: { code?: string } };
    expect((body.detail ?? body.details)?.code).toBe(v.expect === 403 ? "CSRF_REJECTED" : "UNSUPPORTED_MEDIA_TYPE");
    // A refused sign-in or sign-up sets no session cookie in the victim's browser.
    expect(res.headers.get("set-cookie") ?? "").not.toMatch(/auth-token=[^;]/);
  });
});

describe("login CSRF with the attacker's real account", () => {
  it("the exact text/plain body a form sends, cross-site or from a browser without Origin, never signs the victim in as the attacker", async () => {
    const attacker = await createUser({ password: "attacker-password=" });
    const form = `{"email":"${attacker.email}","password":"attacker-password="}`;
    const variants: Record<string, string>[] = [
      { "content-type": "text/plain", origin: evil, "sec-fetch-site": "cross-site" },
      { "content-type": "text/plain" },
      { "content-type": "application/x-www-form-urlencoded", origin: evil },
      { "content-type": "application/json", origin: evil },
    ];
    for (const headers of variants) {
      const b = victimsBrowser();
      const res = await b.request("POST", "/api/auth/sign-in", form, headers);
      expect([403, 415], JSON.stringify(headers)).toContain(res.status);
      expect(res.headers.get("set-cookie")).toBeNull();
      const me = (await (await b.get("/api/auth/me")).json()) as { user: { id: string } | null };
      expect(me.user?.id).toBe(victim.id);
    }
  });
});
