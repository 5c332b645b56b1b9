import { createChunks, stringToBase64URL } from "@supabase/ssr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "@/lib/api/token-claims";
import { Browser } from "../helpers/http";
import { bodyFor, guardedState, makeVictim, sameOrigin, type Victim } from "../helpers/security-fixtures";
import { apiRoutes, effectiveAuth, fillPath, isWrite, key, type RouteHandler } from "../helpers/security-routes";
import { FORGERY_NAMES, forgeTokens, MALFORMED_BEARERS, type Forgery } from "../helpers/security-tokens";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient, createUser } from "../helpers/supabase";

/**
 * Forged credentials against the app: every signed-in-only route (derived from app/api) anonymously
 * and with each forged token as bearer and in the session cookie, the project's anon and service-role keys as bearer
 * and as X-API-Key, malformed bearers, and genuine tokens of a signed-out session or a deleted account on writes.
 * Each forgery carries the victim's own claims, so a success would act as the victim: every case must answer 401 and
 * the victim's data (read from Postgres) must be exactly as before.
 */

const pool = adminPool();
let victim: Victim;
let forgeries: Forgery[];
let before: Awaited<ReturnType<typeof guardedState>>;
/** A second genuine session of the victim, signed out by one test (signed in before the snapshot: sign-ins emit an event). */
let spare: { client: ReturnType<typeof anonClient>; token: string };

// Computed when the file is collected, so each route × credential is a case of its own (the count of attacks tried).
const ROUTES = apiRoutes();
const ids = { id: "00000000-0000-4000-8000-000000000000" }; // replaced by the victim's collection id at run time
const gated = ROUTES.filter((h) => effectiveAuth(h, fillPath(h.template, ids)) === "user");
const KEYS = ["the anon key", "the service-role key"] as const;

function credential(name: string): string {
  if (name === "the anon key") return stackEnv().anonKey as string;
  if (name === "the service-role key") return stackEnv().serviceRoleKey as string;
  const f = forgeries.find((x) => x.name === name);
  if (!f) throw new Error(`no forgery named ${name}`);
  return f.token;
}

const pathOf = (h: RouteHandler) => fillPath(h.template, { id: victim.collectionId });

/** The request an attacker sends: from a page of our own origin (so the CSRF gate does not answer first), JSON body. */
function send(h: RouteHandler, headers: Record<string, string>, b = new Browser()): Promise<Response> {
  return b.request(h.method, pathOf(h), isWrite(h) ? bodyFor(h.method, h.template, victim) : undefined, { ...sameOrigin(), ...headers });
}

async function expect401(res: Response, what: string) {
  expect(res.status, what).toBe(401);
  const body = (await res.json()) as { detail?: { code?: string } };
  expect(body.detail?.code, what).toBe("UNAUTHORIZED");
}

beforeAll(async () => {
  victim = await makeVictim(pool, "forged-tokens");
  forgeries = await forgeTokens(victim.token);
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({ email: victim.email, password: victim.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  spare = { client, token: data.session.access_token };
  expect(forgeries.map((f) => f.name)).toEqual(FORGERY_NAMES);
  before = await guardedState(pool, [victim.id]);
}, 60_000);

afterAll(async () => {
  // Nothing any attack in this file sent changed what the victim owns, nor created a collection for anyone.
  expect(await guardedState(pool, [victim.id])).toEqual(before);
  await pool.end();
});

describe("the map of routes this file attacks", () => {
  it("covers every signed-in-only handler, writes included", () => {
    expect(gated.length).toBeGreaterThanOrEqual(20);
    expect(gated.map(key)).toEqual(expect.arrayContaining(["GET /api/collections", "DELETE /api/collections/[id]", "POST /api/guest/convert"]));
    expect(gated.some(isWrite)).toBe(true);
  });
});

describe("anonymous caller on every signed-in-only route → 401", () => {
  it.each(gated.map((h) => [key(h), h] as const))("%s", async (_, h) => {
    await expect401(await send(h, {}), key(h));
  });
});

describe.each(FORGERY_NAMES.map((n) => [n]))("bearer: %s", (name) => {
  it.each(gated.map((h) => [key(h), h] as const))("%s → 401", async (_, h) => {
    await expect401(await send(h, { authorization: `Bearer ${credential(name)}` }), `${name} on ${key(h)}`);
  });

  it("GET /api/auth/me → {user: null}", async () => {
    const res = await new Browser().get("/api/auth/me", { authorization: `Bearer ${credential(name)}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
  });
});

describe.each(KEYS.map((n) => [n]))("%s as bearer", (name) => {
  it.each(gated.map((h) => [key(h), h] as const))("%s → 401", async (_, h) => {
    await expect401(await send(h, { authorization: `Bearer ${credential(name)}` }), `${name} on ${key(h)}`);
  });

  it("GET /api/auth/me → {user: null}", async () => {
    const res = await new Browser().get("/api/auth/me", { authorization: `Bearer ${credential(name)}` });
    expect(await res.json()).toEqual({ user: null });
  });

  it("as X-API-Key on the reference API and on a session route → 401 INVALID_API_KEY", async () => {
    for (const path of ["/api/v1/health", "/api/collections"]) {
      const res = await new Browser().get(path, { "x-api-key": credential(name) });
      expect(res.status, path).toBe(401);
      const body = (await res.json()) as { detail?: { code?: string }; details?: { code?: string } };
      expect((body.detail ?? body.details)?.code, path).toBe("INVALID_API_KEY");
    }
  });
});

/** A browser whose @supabase/ssr session cookie holds `token` as the access token (chunked like the real one). */
function browserWithCookie(token: string): Browser {
  const b = new Browser();
  const session = {
    access_token: token,
    token_type: "bearer",
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    refresh_token: "attacker-has-no-refresh-token",
    user: { id: victim.id, email: victim.email, role: "authenticated", aud: "authenticated", app_metadata: { role: "admin" } },
  };
  for (const c of createChunks(sessionCookieName(stackEnv().supabaseUrl as string), `base64-${stringToBase64URL(JSON.stringify(session))}`)) {
    b.setCookie(c.name, c.value);
  }
  return b;
}

describe.each([...FORGERY_NAMES, ...KEYS].map((n) => [n]))("session cookie holding %s", (name) => {
  it("GET /api/auth/me → {user: null}", async () => {
    const res = await browserWithCookie(credential(name)).get("/api/auth/me");
    expect(await res.json()).toEqual({ user: null });
  });

  it("GET /api/collections → 401", async () => {
    await expect401(await browserWithCookie(credential(name)).get("/api/collections"), name);
  });

  it("POST /api/collections → 401", async () => {
    await expect401(await browserWithCookie(credential(name)).post("/api/collections", { name: "planted" }, sameOrigin()), name);
  });

  it("DELETE /api/collections/{victim's id} → 401", async () => {
    await expect401(await browserWithCookie(credential(name)).request("DELETE", `/api/collections/${victim.collectionId}`, undefined, sameOrigin()), name);
  });
});

describe("malformed bearers never read as a user nor crash a handler", () => {
  it.each(MALFORMED_BEARERS.map((v) => [v.length > 20 ? `${v.slice(0, 8)}… (${v.length} chars)` : JSON.stringify(v), v] as const))(
    "Bearer %s on GET and POST /api/collections → 401",
    async (_, v) => {
      await expect401(await new Browser().get("/api/collections", { authorization: `Bearer ${v}` }), v);
      await expect401(await new Browser().post("/api/collections", { name: "planted" }, { ...sameOrigin(), authorization: `Bearer ${v}` }), v);
    },
  );
});

describe("genuine tokens that no longer stand for a live session (writes check with the auth server)", () => {
  const writes = () => gated.filter(isWrite).filter((h) => !h.template.includes("[...path]"));

  it("a signed-out session's access token cannot write: every write route → 401", async () => {
    const { client, token } = spare;
    // Sanity: the token passes the write gate before sign-out (a POST that changes nothing).
    const ok = await new Browser().post("/api/documents/batch", { ids: victim.documentIds }, { ...sameOrigin(), authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    await client.auth.signOut({ scope: "local" });
    for (const h of writes()) await expect401(await send(h, { authorization: `Bearer ${token}` }), `signed-out token on ${key(h)}`);
    // The victim's other sessions are untouched by this one's sign-out.
    expect((await victim.browser.get("/api/auth/me")).status).toBe(200);
  });

  it("a deleted account's unexpired token cannot write: every write route → 401", async () => {
    const gone = await createUser();
    const { data, error } = await anonClient().auth.signInWithPassword({ email: gone.email, password: gone.password });
    if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
    await pool.query("delete from auth.users where id = $1", [gone.id]);
    for (const h of writes()) await expect401(await send(h, { authorization: `Bearer ${data.session.access_token}` }), `deleted account on ${key(h)}`);
    const { rows } = await pool.query("select 1 from public.collections where user_id = $1", [gone.id]);
    expect(rows).toHaveLength(0);
  });
});
