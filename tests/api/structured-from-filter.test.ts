import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { realtimeOptions, serverAuthOptions } from "@/lib/supabase/options";
import { collectionFromFilter } from "@/lib/backend/collections/from-filter";
import { resetConfigForTests } from "@/lib/config";
import { createUser } from "../helpers/http";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { adminPool, stackEnv } from "../helpers/stack";

const pool = adminPool();
const FROM_FILTER = "/api/collections/from-filter";

let alice: Visitor;
let bob: Visitor;
let completedPL = 0;

beforeAll(async () => {
  ({ visitor: alice } = await signedInVisitor());
  ({ visitor: bob } = await signedInVisitor());
  completedPL = Number(
    (await pool.query<{ n: string }>("select count(*) as n from public.judgments where base_extraction_status = 'completed' and jurisdiction = 'PL'"))
      .rows[0].n,
  );
});

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  resetConfigForTests();
});
afterAll(() => pool.end());

async function detail(res: Response) {
  return ((await res.json()) as { detail: Record<string, unknown> }).detail;
}

describe("POST /api/collections/from-filter (HTTP)", () => {
  it("201: one collection holding the whole cohort, pair_id null", async () => {
    const res = await alice.post(FROM_FILTER, { name: "PL cohort", description: "from a filter", filters: { jurisdiction: ["PL"] } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ total_matched: completedPL, pair_id: null });
    expect(body.collections).toHaveLength(1);
    expect(body.collections[0]).toMatchObject({
      jurisdiction: null,
      added_count: completedPL,
      collection: { name: "PL cohort", description: "from a filter", document_count: completedPL },
    });
    const page = await (await alice.get(`/api/collections/${body.collections[0].collection.id}/documents?limit=1`)).json();
    expect(page.total).toBe(completedPL);
  });

  it("collection_ids of the caller's own collections narrow the cohort", async () => {
    const col = await (await alice.post("/api/collections", { name: "seed" })).json();
    const ids = (await pool.query<{ id: string }>("select id::text from public.judgments where base_extraction_status = 'completed' limit 3")).rows.map((r) => r.id);
    await alice.post(`/api/collections/${col.id}/documents/batch`, { document_ids: ids });
    const res = await alice.post(FROM_FILTER, { name: "copy", filters: { collection_ids: [col.id] } });
    expect(res.status).toBe(201);
    expect((await res.json()).total_matched).toBe(3);
  });

  it("400 INVALID_COLLECTION_ID for a non-UUID or non-string entry, before anything else is checked", async () => {
    for (const collection_ids of [["nope"], [42], "x"]) {
      const res = await alice.post(FROM_FILTER, { name: "x", filters: { collection_ids, bogus_key: 1 } });
      expect([res.status, (await detail(res)).code]).toEqual([400, "INVALID_COLLECTION_ID"]);
    }
  });

  it("404 COLLECTION_NOT_FOUND for another user's or a missing collection, never saying which", async () => {
    const mine = await (await alice.post("/api/collections", { name: "mine" })).json();
    const theirs = await (await bob.post("/api/collections", { name: "theirs" })).json();
    for (const ids of [[theirs.id], [mine.id, theirs.id], [randomUUID()]]) {
      const res = await alice.post(FROM_FILTER, { name: "x", filters: { collection_ids: ids } });
      expect(res.status).toBe(404);
      const d = await detail(res);
      expect(d.code).toBe("COLLECTION_NOT_FOUND");
      for (const id of ids) expect(JSON.stringify(d)).not.toContain(id);
    }
  });

  it("400 FILTER_EMPTY when nothing matches, and no collection is created", async () => {
    const before = (await (await alice.get("/api/collections")).json()).total;
    const res = await alice.post(FROM_FILTER, { name: "empty", filters: { jurisdiction: [] } });
    expect([res.status, (await detail(res)).code]).toEqual([400, "FILTER_EMPTY"]);
    expect((await (await alice.get("/api/collections")).json()).total).toBe(before);
  });

  it("422 FILTER_INVALID for a bad filter; 422 VALIDATION_ERROR for name, description, text_query, missing filters", async () => {
    const res = await alice.post(FROM_FILTER, { name: "x", filters: { nope: 1 } });
    expect(res.status).toBe(422);
    expect(await detail(res)).toMatchObject({ code: "FILTER_INVALID", field: "nope" });
    for (const body of [
      { name: "", filters: {} },
      { name: "x".repeat(256), filters: {} },
      { name: "x", description: "d".repeat(1001), filters: {} },
      { name: "x", filters: {}, text_query: "q".repeat(1001) },
      { name: "x" },
    ]) {
      const r = await alice.post(FROM_FILTER, body);
      expect([r.status, (await detail(r)).code]).toEqual([422, "VALIDATION_ERROR"]);
    }
  });
});

/** The same module the route runs, called with a real supabase-js client signed in through the local gateway. */
async function userClient(): Promise<SupabaseClient> {
  const user = await createUser();
  const env = stackEnv();
  const db = createClient(env.supabaseUrl as string, env.anonKey as string, { auth: serverAuthOptions, realtime: realtimeOptions });
  const { error } = await db.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return db;
}

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("from-filter limits and the failed-chunk path (backend module, real database)", () => {
  it("413 FILTER_TOO_LARGE above SAVE_FROM_FILTER_MAX_DOCUMENTS, with total, cap and jurisdiction null, nothing created", async () => {
    process.env.SAVE_FROM_FILTER_MAX_DOCUMENTS = "10";
    resetConfigForTests();
    const db = await userClient();
    const err = await caught(collectionFromFilter(db, { name: "big", filters: { jurisdiction: ["PL"] } }));
    expect([err.status, err.code, err.extra]).toEqual([413, "FILTER_TOO_LARGE", { total: completedPL, cap: 10, jurisdiction: null }]);
    expect((await db.rpc("list_collections")).data).toEqual([]);
  });

  // Changed on purpose (L9): from-filter no longer adds in chunks from the app with a best-effort delete on
  // failure; one SQL function creates and fills the collection in one transaction. The failure paths (a bad row in
  // the middle, the clean-up that could not run) are in tests/db/durability-from-filter.test.ts.
  it("saves the whole cohort in one call, exactly at the cap, with the collection's document_count", async () => {
    process.env.SAVE_FROM_FILTER_MAX_DOCUMENTS = String(completedPL);
    resetConfigForTests();
    const db = await userClient();
    const ok = await collectionFromFilter(db, { name: "at the cap", filters: { jurisdiction: ["PL"] } });
    expect(ok.collections[0].added_count).toBe(completedPL);
    expect(ok.total_matched).toBe(completedPL);
    expect(ok.collections[0].collection.document_count).toBe(completedPL);
    const names = ((await db.rpc("list_collections")).data as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(["at the cap"]);
  });
});
