import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/backend/api-keys";
import { adminPool } from "../helpers/stack";
import { Browser } from "../helpers/http";
import { serviceClient, userWithToken } from "../helpers/supabase";


/**
 * POST /api/events end to end: 202 at once, the write after the response, identity from the token only, and every
 * rejection a 422 with nothing stored. Each test tags its events with its own session_id to find them.
 */
const pool = adminPool();
const DOC = "0b6e3c2a-4d1f-4a8e-9c3b-2f1e0d9c8b7a";

async function rowsFor(sessionId: string) {
  const { rows } = await pool.query<{ name: string; user_id: string | null; surface: string; created_at: Date; properties: Record<string, unknown> }>(
    "select name, user_id, surface, created_at, properties from public.app_events where session_id = $1 order by name",
    [sessionId],
  );
  return rows;
}

/** The write runs after the response: wait (bounded) for `n` rows. */
async function waitForRows(sessionId: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const rows = await rowsFor(sessionId);
    if (rows.length >= n) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return rowsFor(sessionId);
}

const event = (name: string, properties: Record<string, unknown>, session_id: string, extra: Record<string, unknown> = {}) => ({
  name,
  properties,
  session_id,
  guest_session_id: randomUUID(),
  surface: "web",
  locale: "en",
  app_version: "test",
  ...extra,
});

let apiKey: string;
let user: { id: string; token: string };

beforeAll(async () => {
  apiKey = (await createApiKey(serviceClient(), { name: "events test" })).key;
  user = await userWithToken();
});

afterAll(async () => {
  await pool.end();
});

describe("POST /api/events", () => {
  it("accepts a valid anonymous batch with 202 and stores it with no user and the server's time", async () => {
    const sid = randomUUID();
    const t0 = (await pool.query<{ now: Date }>("select now()")).rows[0].now;
    const res = await new Browser().post("/api/events", {
      events: [event("judgment_viewed", { document_id: DOC }, sid), event("search_submitted", { result_count: 3, query_length: 11, mode: "text" }, sid)],
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 2 });
    const rows = await waitForRows(sid, 2);
    expect(rows.map((r) => r.name)).toEqual(["judgment_viewed", "search_submitted"]);
    for (const r of rows) {
      expect(r.user_id).toBeNull();
      expect(r.surface).toBe("web");
      expect(r.created_at.getTime()).toBeGreaterThanOrEqual(t0.getTime() - 1000);
    }
  });

  it("stamps user_id from the bearer token", async () => {
    const sid = randomUUID();
    const res = await new Browser().post("/api/events", { events: [event("chat_message_sent", { message_length: 5 }, sid)] }, { authorization: `Bearer ${user.token}` });
    expect(res.status).toBe(202);
    const rows = await waitForRows(sid, 1);
    expect(rows).toEqual([expect.objectContaining({ name: "chat_message_sent", user_id: user.id })]);
  });

  it("marks API-key callers as surface api", async () => {
    const sid = randomUUID();
    const res = await new Browser().post("/api/events", { events: [event("judgment_exported", { format: "csv", count: 2, preset: "all" }, sid)] }, { "x-api-key": apiKey });
    expect(res.status).toBe(202);
    expect((await waitForRows(sid, 1))[0].surface).toBe("api");
  });

  it.each([
    ["an unknown name", (sid: string) => ({ events: [event("page_scrolled", {}, sid)] }), {}],
    ["an unknown field", (sid: string) => ({ events: [event("judgment_viewed", { document_id: DOC }, sid, { referrer: "x" })] }), {}],
    ["21 events", (sid: string) => ({ events: Array.from({ length: 21 }, () => event("judgment_viewed", { document_id: DOC }, sid)) }), {}],
    ["9 KB of properties", (sid: string) => ({ events: [event("error_boundary_triggered", { error_name: "E", message: "m", pad: "x".repeat(9 * 1024) }, sid)] }), {}],
    ["user_id in the body", (sid: string) => ({ events: [event("judgment_viewed", { document_id: DOC }, sid, { user_id: randomUUID() })] }), {}],
    ["auth_signed_in from a browser", (sid: string) => ({ events: [event("auth_signed_in", {}, sid)] }), {}],
    ["auth_signed_in with the API key", (sid: string) => ({ events: [event("auth_signed_in", {}, sid)] }), { "x-api-key": "KEY" }],
    ["auth_signed_up with the API key", (sid: string) => ({ events: [event("auth_signed_up", {}, sid)] }), { "x-api-key": "KEY" }],
    ["one bad event among good ones", (sid: string) => ({ events: [event("judgment_viewed", { document_id: DOC }, sid), event("judgment_viewed", { document_id: "nope" }, sid)] }), {}],
  ])("rejects %s with a 422 naming the problem and stores nothing", async (_label, build, headers: Record<string, string>) => {
    const sid = randomUUID();
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === "KEY" ? apiKey : v]));
    const res = await new Browser().post("/api/events", build(sid), h);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { code: string; message: string } };
    expect(body.detail.code).toMatch(/^EVENT_/);
    expect(body.detail.message.length).toBeGreaterThan(10);
    // A later valid batch is written after this one would have been: once it is there, nothing else came.
    const marker = randomUUID();
    await new Browser().post("/api/events", { events: [event("judgment_viewed", { document_id: DOC }, marker)] });
    await waitForRows(marker, 1);
    expect(await rowsFor(sid)).toEqual([]);
  });

  it("rejects a body that is not JSON with 400", async () => {
    const res = await new Browser().post("/api/events", "{not json");
    expect(res.status).toBe(400);
  });
});
