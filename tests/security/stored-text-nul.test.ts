import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

/**
 * Text Postgres cannot store — a NUL character, an unpaired UTF-16 surrogate — is refused by the request schemas
 * (lib/schema/text.ts) with 422 VALIDATION_ERROR. Before, each of these writes reached the database and answered
 * 500 DATABASE_ERROR (the filter route 500 FILTER_FAILED). Each route also takes the same body with clean text, so the
 * 422 is about the text and nothing else; and nothing with the bad text is stored.
 */
const pool = adminPool();
const NO_SUCH = "00000000-0000-4000-8000-000000000000";
const BAD = { nul: "a\u0000b", "lone high surrogate": "x\ud800", "lone low surrogate": "\udc00y" } as const;
const CLEAN = "clean text ż 😀";

let user: Browser;
let userId: string;
let apiKey: string;
beforeAll(async () => {
  const signed = await signedInBrowser();
  user = signed.browser;
  userId = signed.user.id;
  const res = await user.post("/api/settings/api-keys", { name: "stored-text" });
  expect(res.status).toBe(201);
  apiKey = ((await res.json()) as { key: string }).key;
});
afterAll(() => pool.end());

type Case = { name: string; method: "POST" | "PATCH"; path: string; body: (text: string) => unknown; ok: number[]; key?: boolean };
const schemaBody = (name: string) => ({ name, fields: [{ name: "f", type: "string", description: "d" }] });
const CASES: Case[] = [
  { name: "chat message", method: "POST", path: "/api/chat", body: (t) => ({ message: t, thread_id: NO_SUCH, stream: false }), ok: [404] },
  { name: "collection name", method: "POST", path: "/api/collections", body: (t) => ({ name: t }), ok: [201] },
  { name: "collection description", method: "POST", path: "/api/collections", body: (t) => ({ name: "n", description: t }), ok: [201] },
  { name: "saved search name", method: "POST", path: "/api/saved-searches", body: (t) => ({ name: t, kind: "search" }), ok: [201] },
  { name: "saved search query", method: "POST", path: "/api/saved-searches", body: (t) => ({ name: "n", kind: "search", query: t }), ok: [201] },
  { name: "saved search params (free-form JSON)", method: "POST", path: "/api/saved-searches", body: (t) => ({ name: "n", kind: "extractions", params: { q: t } }), ok: [201] },
  { name: "schema name", method: "POST", path: "/api/schemas", body: (t) => schemaBody(t), ok: [201] },
  { name: "schema field description", method: "POST", path: "/api/schemas", body: (t) => ({ ...schemaBody("s"), fields: [{ name: "f", type: "string", description: t }] }), ok: [201] },
  { name: "profile display name", method: "PATCH", path: "/api/settings/profile", body: (t) => ({ display_name: t }), ok: [200] },
  { name: "reference API collection name", method: "POST", path: "/api/v1/collections", body: (t) => ({ name: t }), ok: [201], key: true },
  { name: "filter text_query", method: "POST", path: "/api/extractions/base-schema/filter", body: (t) => ({ text_query: t }), ok: [200] },
];

async function send(c: Case, text: string): Promise<Response> {
  if (c.key) return new Browser().request(c.method, c.path, c.body(text), { "x-api-key": apiKey });
  return user.request(c.method, c.path, c.body(text));
}

describe("NUL and unpaired surrogates in stored text are 422 VALIDATION_ERROR, never 500", () => {
  for (const c of CASES) {
    it(`${c.method} ${c.path}: ${c.name}`, async () => {
      const good = await send(c, CLEAN);
      expect([c.name, good.status]).toEqual([c.name, c.ok.includes(good.status) ? good.status : `one of ${c.ok.join(",")} (got ${good.status}: ${await good.text()})`]);
      for (const [kind, text] of Object.entries(BAD)) {
        const res = await send(c, text);
        // The web tier answers {detail: {code}}, the reference API {details: {code}}.
        const body = (await res.json()) as { detail?: { code?: string }; details?: { code?: string } };
        expect([c.name, kind, res.status, (body.detail ?? body.details)?.code]).toEqual([c.name, kind, 422, "VALIDATION_ERROR"]);
      }
    });
  }

  it("search queries with NUL are refused the same way (they are recorded in search history), clean ones answer 200", async () => {
    const anon = new Browser();
    for (const path of ["/api/search/autocomplete", "/api/search/documents"]) {
      expect([path, (await anon.get(`${path}?q=robbery`)).status]).toEqual([path, 200]);
      const res = await anon.get(`${path}?q=robbery%00`);
      expect([path, res.status, ((await res.json()) as { detail?: { code?: string } }).detail?.code]).toEqual([path, 422, "VALIDATION_ERROR"]);
    }
  });

  it("nothing the refused requests carried was stored: only the clean writes are there", async () => {
    const names = async (table: string) =>
      (await pool.query<{ name: string }>(`select name from public.${table} where user_id = $1 order by name`, [userId])).rows.map((r) => r.name);
    // Collections: the clean name twice (web and reference API) and "n" (the clean description); saved searches: the
    // clean name and two "n".
    expect(await names("collections")).toEqual([CLEAN, CLEAN, "n"].sort());
    expect(await names("saved_searches")).toEqual([CLEAN, "n", "n"].sort());
  });
});
