import { randomUUID } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordSearch, recordSearches, searchHistory } from "@/lib/backend/search-analytics";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient, serviceClient, supabaseAs } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();

const client = supabaseAs;
const service = serviceClient;
const anon = anonClient;

async function signedInUser(): Promise<{ id: string; db: SupabaseClient }> {
  const email = `analytics-${randomUUID().slice(0, 8)}@example.org`;
  const password = "correct-horse-battery-staple";
  const created = await service().auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw new Error(created.error?.message);
  const { data, error } = await anon().auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(error?.message);
  return { id: created.data.user.id, db: client(env.anonKey as string, { Authorization: `Bearer ${data.session.access_token}` }) };
}

let alice: { id: string; db: SupabaseClient };
let bob: { id: string; db: SupabaseClient };

beforeAll(async () => {
  alice = await signedInUser();
  bob = await signedInUser();
  await recordSearch(service(), { query: "alice: theft appeal", hitCount: 12, latencyMs: 33, mode: "hybrid", userId: alice.id });
  await recordSearch(service(), { query: "alice: fraud", hitCount: 0, latencyMs: 8, mode: "text", userId: alice.id });
  await recordSearch(service(), { query: "bob: sentencing", hitCount: 4, latencyMs: 21, mode: "text", userId: bob.id });
  await recordSearch(service(), { query: "a guest query", hitCount: 1, latencyMs: 5, mode: "text", userId: null });
});

afterAll(async () => {
  await pool.end();
});

describe("search analytics (RLS, two users)", () => {
  it("each user's history holds only their own rows, newest first", async () => {
    const a = await searchHistory(alice.db, { limit: 20, offset: 0 });
    expect(a.map((r) => r.query)).toEqual(["alice: fraud", "alice: theft appeal"]);
    expect(a[1]).toMatchObject({ hit_count: 12, latency_ms: 33, mode: "hybrid" });
    const b = await searchHistory(bob.db, { limit: 20, offset: 0 });
    expect(b.map((r) => r.query)).toEqual(["bob: sentencing"]);
  });

  it("RLS holds on the table itself: a user selecting every row sees only theirs", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("set local role authenticated");
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: bob.id, role: "authenticated" })]);
      const { rows } = await client.query<{ user_id: string }>("select user_id from public.search_analytics");
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.user_id === bob.id)).toBe(true);
      await client.query("rollback");
    } finally {
      client.release();
    }
  });

  it("anonymous callers and users cannot write or read others' analytics", async () => {
    expect((await anon().rpc("search_history", { p_limit: 5, p_offset: 0 })).error?.code).toBe("42501");
    const forged = await alice.db.rpc("record_search", { p_query: "x", p_hit_count: 1, p_latency_ms: 1, p_mode: "text", p_user_id: bob.id });
    expect(forged.error?.code).toBe("42501");
    const { rows } = await pool.query("select count(*)::int as n from public.search_analytics where user_id = $1", [bob.id]);
    expect(rows[0].n).toBe(1);
  });

  it("guest rows have a null user_id; long queries are truncated; limit is clamped", async () => {
    const { rows } = await pool.query("select user_id from public.search_analytics where query = 'a guest query'");
    expect(rows[0].user_id).toBeNull();
    await recordSearch(service(), { query: "q".repeat(5000), hitCount: 1, latencyMs: 1, mode: "Semantic Search!", userId: alice.id });
    const a = await searchHistory(alice.db, { limit: 1, offset: 0 });
    expect(a).toHaveLength(1);
    expect(a[0].query).toHaveLength(1000);
    expect(a[0].mode).toBe("semantic_search_");
  });
});

describe("record_searches (the batched writer)", () => {
  it("writes every row of the batch with the same clamping, and is refused to users", async () => {
    const n = await recordSearches(service(), [
      { query: "batch one", hitCount: -3, latencyMs: 2.6, mode: "text", userId: bob.id },
      { query: "batch two", hitCount: 5, latencyMs: 1, mode: "Hybrid", userId: bob.id },
    ]);
    expect(n).toBe(2);
    const { rows } = await pool.query(
      "select query, hit_count, latency_ms, mode from public.search_analytics where user_id = $1 and query like 'batch %' order by query",
      [bob.id],
    );
    expect(rows).toEqual([
      { query: "batch one", hit_count: 0, latency_ms: 3, mode: "text" },
      { query: "batch two", hit_count: 5, latency_ms: 1, mode: "hybrid" },
    ]);
    expect((await alice.db.rpc("record_searches", { p_rows: [] })).error?.code).toBe("42501");
    expect((await anon().rpc("record_searches", { p_rows: [] })).error?.code).toBe("42501");
  });

  it("a row of an account deleted while it waited in the queue is dropped, not the whole batch", async () => {
    const carol = await signedInUser();
    const { error } = await service().auth.admin.deleteUser(carol.id);
    expect(error).toBeNull();
    // The test database outlives a run: this run's rows are told apart by a tag.
    const tag = `queued ${randomUUID().slice(0, 8)}:`;
    const n = await recordSearches(service(), [
      { query: `${tag} bob before`, hitCount: 1, latencyMs: 1, mode: "text", userId: bob.id },
      { query: `${tag} carol, deleted since`, hitCount: 1, latencyMs: 1, mode: "text", userId: carol.id },
      { query: `${tag} a guest`, hitCount: 1, latencyMs: 1, mode: "text", userId: null },
    ]);
    expect(n).toBe(2);
    const { rows } = await pool.query("select query, user_id from public.search_analytics where query like $1 order by query", [`${tag} %`]);
    expect(rows).toEqual([
      { query: `${tag} a guest`, user_id: null },
      { query: `${tag} bob before`, user_id: bob.id },
    ]);
  });

  it("writes nothing for anything but an array", async () => {
    expect((await service().rpc("record_searches", { p_rows: { query: "x" } })).data).toBe(0);
  });
});
