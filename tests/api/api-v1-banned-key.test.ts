import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { V1_OPERATIONS } from "@/lib/backend/api-v1/openapi";
import { adminPool, stackEnv } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { serviceClient } from "../helpers/supabase";

/**
 * Security review round 3 #3, over real HTTP: a banned user's API keys stop working on every /api/v1 route at once
 * (401 INVALID_API_KEY; the key was used just before, so the app still remembered it as valid), nothing is written
 * through them, and the lookup itself skips them; lifting the ban makes the same keys work again (P-82: a ban
 * suspends keys, it does not revoke them).
 */
const pool = adminPool();
type Json = Record<string, unknown>;

let admin: Browser;
let user: Awaited<ReturnType<typeof signedInBrowser>>;
let key: string;
let prefix: string;

beforeAll(async () => {
  [{ browser: admin }, user] = await Promise.all([signedInBrowser({ admin: true }), signedInBrowser()]);
  const res = await user.browser.post("/api/settings/api-keys", { name: "nightly" });
  expect(res.status).toBe(201);
  key = ((await res.json()) as { key: string }).key;
  prefix = key.slice(4, 16);
}, 120_000);

afterAll(() => pool.end());

/** Every documented operation that needs a key, with a body it would accept. */
function requests(): { method: "GET" | "POST"; path: string; body?: Json }[] {
  const bodies: Record<string, Json> = {
    "/api/v1/documents/search": { query: "appeal" },
    "/api/v1/search/semantic": { query: "appeal" },
    "/api/v1/collections": { name: "through a banned key" },
    "/api/v1/feedback": { type: "search", rating: 4 },
    "/api/v1/schemas/generate": { description: "sentence length and mitigating factors" },
    "/api/v1/chat": { message: "x" },
    "/api/v1/qa": { question: "x" },
    "/api/v1/extractions/base-schema/aggregate": { fields: ["base_appellant"] },
  };
  return V1_OPERATIONS.filter((op) => !op.public).map((op) => {
    const path = op.path.replace("{id}", randomUUID());
    return op.method === "get" ? { method: "GET" as const, path } : { method: "POST" as const, path, body: bodies[op.path] ?? {} };
  });
}

const collections = async () => (await pool.query<{ n: number }>("select count(*)::int as n from public.collections where user_id = $1", [user.user.id])).rows[0].n;
const lookup = async () => {
  const { data, error } = await serviceClient().rpc("api_key_lookup", { p_prefix: prefix });
  expect(error).toBeNull();
  return data as unknown[];
};

describe("a banned user's API keys", () => {
  it("work before the ban, are refused on every /api/v1 route while it lasts, and work again once it is lifted", async () => {
    const api = new Browser();
    const headers = { "x-api-key": key };
    expect((await api.get("/api/v1/collections", headers)).status).toBe(200);
    expect(await lookup()).toHaveLength(1);

    const ban = await admin.patch(`/api/admin/users/${user.user.id}`, { banned: true });
    expect(ban.status).toBe(200);
    const before = await collections();
    const all = requests();
    expect(all.length).toBeGreaterThan(15);
    for (const r of all) {
      const res = r.method === "GET" ? await api.get(r.path, headers) : await api.post(r.path, r.body ?? {}, headers);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(await res.json(), `${r.method} ${r.path}`).toMatchObject({ status_code: 401, details: { code: "INVALID_API_KEY" } });
    }
    expect(await collections()).toBe(before);
    // The lookup skips the key too (another app process, with nothing remembered, refuses it as well).
    expect(await lookup()).toEqual([]);
    // The key itself is untouched: not revoked.
    expect((await pool.query("select revoked_at from public.api_keys where prefix = $1", [prefix])).rows).toEqual([{ revoked_at: null }]);

    expect((await admin.patch(`/api/admin/users/${user.user.id}`, { banned: false })).status).toBe(200);
    expect(await lookup()).toHaveLength(1);
    expect((await api.get("/api/v1/collections", headers)).status).toBe(200);
    const made = await api.post("/api/v1/collections", { name: "after the ban" }, headers);
    expect(made.status).toBe(201);
    expect(await collections()).toBe(before + 1);
    // A dev server compiles each route on its first request: a hang guard, not a speed limit.
  }, 300_000);

  it("the gateway serves the lookup to the service role only", async () => {
    const env = stackEnv();
    const res = await fetch(new URL("/rest/v1/rpc/api_key_lookup", env.supabaseUrl as string), {
      method: "POST",
      headers: { "content-type": "application/json", apikey: env.anonKey as string },
      body: JSON.stringify({ p_prefix: prefix }),
    });
    expect(res.status).toBe(401);
  });
});
