/**
 * search_topics_runs and search_topic_clicks on real Postgres through the gateway: RLS as anonymous and as
 * two users, the narrow SECURITY DEFINER readers (latest_search_topics_run, search_topic_click_counts), the
 * service-only click writer, and topic_model_sample drawing exactly the aggregate's seeded sample.
 */
import { randomUUID } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYSIS_FIELDS, NAME_FIELDS } from "@/lib/analysis/document";
import { seededSample } from "@/lib/analysis/sample";
import { adminPool, stackEnv } from "../helpers/stack";
import { anonClient, serviceClient, supabaseAs, userWithToken } from "../helpers/supabase";

const env = stackEnv();
const pool = adminPool();
const anon = anonClient();
const service = serviceClient();

interface User {
  id: string;
  db: SupabaseClient;
}
let alice: User;
let bob: User;
const aliceRun = randomUUID();
const bobRun = randomUUID();

const result = (topics: number) => ({
  topics: Array.from({ length: topics }, (_, id) => ({
    id,
    label: `topic ${id}`,
    keywords: [{ term: `t${id}`, weight: 1 }],
    size: 10 - id,
    coherence: 0.5,
    trend: "stable",
    slope: 0,
    weights_by_period: [],
    sample_documents: [{ id: randomUUID(), case_number: "X 1/20", title: "private title", weight: 0.9 }],
  })),
  periods: [],
  params: { sample_size: 20 },
  corpus_size: 600,
  model: { documents: 20 },
});

async function user(prefix: string): Promise<User> {
  const u = await userWithToken(prefix);
  return { id: u.id, db: supabaseAs(env.anonKey as string, { Authorization: `Bearer ${u.token}` }) };
}

/** A run as the server stores it (P-83: callers cannot store runs; the server names the user and whether it is public). */
const store = (runId: string, userId: string, seed: number, topics: number, ms: number, isPublic: boolean) =>
  service.rpc("store_search_topics_run", {
    p_run_id: runId,
    p_user_id: userId,
    p_params: { seed },
    p_result: result(topics),
    p_computed_ms: ms,
    p_public: isPublic,
  });

beforeAll(async () => {
  alice = await user("topics-a");
  bob = await user("topics-b");
  // Bob's run may be public (as an admin's is); Alice's is her own, and stored later: the newest run, yet not the index.
  expect((await store(bobRun, bob.id, 2, 2, 7, true)).error).toBeNull();
  await new Promise((r) => setTimeout(r, 20));
  expect((await store(aliceRun, alice.id, 1, 3, 12, false)).error).toBeNull();
});

afterAll(async () => {
  await pool.query("delete from public.search_topics_runs where run_id = any($1::uuid[])", [[aliceRun, bobRun]]);
  await pool.end();
});

describe("search_topics_runs RLS", () => {
  it("a user lists and reads only their own runs; another's id reads as nothing", async () => {
    const list = await alice.db.rpc("list_search_topics_runs", { p_limit: 100, p_offset: 0 });
    expect((list.data as { run_id: string }[] | null)?.map((r) => r.run_id)).toEqual([aliceRun]);
    expect(list.data?.[0]).toMatchObject({ topic_count: 3, document_count: 20, computed_ms: 12 });
    expect((await alice.db.rpc("get_search_topics_run", { p_run_id: aliceRun })).data).toMatchObject({ run_id: aliceRun });
    expect((await alice.db.rpc("get_search_topics_run", { p_run_id: bobRun })).data).toBeNull();
  });

  it("the table itself: a user selecting every row sees only theirs; inserting any run is refused", async () => {
    const c = await pool.connect();
    try {
      await c.query("begin");
      await c.query("set local role authenticated");
      await c.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: bob.id, role: "authenticated" })]);
      const { rows } = await c.query<{ user_id: string }>("select user_id from public.search_topics_runs");
      expect(rows.map((r) => r.user_id)).toEqual([bob.id]);
      // Changed on purpose (security round 3, P-83): no caller inserts runs, not even their own (the server stores them).
      await c.query("savepoint s");
      await expect(
        c.query("insert into public.search_topics_runs (user_id, params, result, topic_count, document_count, computed_ms) values ($1, '{}', '{}', 0, 0, 0)", [alice.id]),
      ).rejects.toThrow(/permission denied/);
      await c.query("rollback to savepoint s");
      await expect(
        c.query("insert into public.search_topics_runs (user_id, params, result, topic_count, document_count, computed_ms) values ($1, '{}', '{}', 0, 0, 0)", [bob.id]),
      ).rejects.toThrow(/permission denied/);
      await c.query("rollback");
    } finally {
      c.release();
    }
  });

  it("a signed-in user cannot store a run through either function (42501): the landing page's topics are not theirs to write", async () => {
    const run = { p_run_id: randomUUID(), p_params: {}, p_result: result(1), p_computed_ms: 1 };
    expect((await alice.db.rpc("create_search_topics_run", run)).error?.code).toBe("42501");
    expect((await alice.db.rpc("store_search_topics_run", { ...run, p_user_id: alice.id, p_public: true })).error?.code).toBe("42501");
    expect((await pool.query("select count(*)::int as n from public.search_topics_runs where run_id = $1", [run.p_run_id])).rows[0].n).toBe(0);
  });

  it("anonymous callers can neither read nor write runs, nor draw samples", async () => {
    expect((await anon.rpc("list_search_topics_runs", { p_limit: 5, p_offset: 0 })).error?.code).toBe("42501");
    expect((await anon.rpc("get_search_topics_run", { p_run_id: aliceRun })).error?.code).toBe("42501");
    expect((await anon.rpc("create_search_topics_run", { p_run_id: randomUUID(), p_params: {}, p_result: result(1), p_computed_ms: 1 })).error?.code).toBe("42501");
    expect((await anon.rpc("topic_model_sample", { p_sample_size: 20, p_seed: 1 })).error?.code).toBe("42501");
  });

  it("latest_search_topics_run (public) gives the latest public run's topics without owner or sample judgments", async () => {
    const { data, error } = await anon.rpc("latest_search_topics_run");
    expect(error).toBeNull();
    const latest = data as { run_id: string; topic_count: number; document_count: number; topics: Record<string, unknown>[] };
    expect(latest).toMatchObject({ run_id: bobRun, topic_count: 2, document_count: 20 });
    expect(latest.topics.map((t) => t.label)).toEqual(["topic 0", "topic 1"]);
    expect(JSON.stringify(latest)).not.toContain("private title");
    expect(JSON.stringify(latest)).not.toContain(bob.id);
  });
});

describe("search_topic_clicks", () => {
  it("only the service role records clicks; exactly one clicker per row", async () => {
    expect((await anon.rpc("record_topic_click", { p_run_id: bobRun, p_topic: 0, p_guest_key: "device:x" })).error?.code).toBe("42501");
    expect((await alice.db.rpc("record_topic_click", { p_run_id: bobRun, p_topic: 0, p_user_id: bob.id })).error?.code).toBe("42501");
    for (const args of [
      { p_run_id: bobRun, p_topic: 0, p_user_id: alice.id, p_query: " drones " },
      { p_run_id: bobRun, p_topic: 0, p_guest_key: "device:1" },
      { p_run_id: bobRun, p_topic: 0, p_guest_key: "device:1" },
      { p_run_id: bobRun, p_topic: 1, p_user_id: bob.id },
    ])
      expect((await service.rpc("record_topic_click", args)).error).toBeNull();
    // Neither a user nor a device: refused by the table's check.
    expect((await service.rpc("record_topic_click", { p_run_id: bobRun, p_topic: 0 })).error).not.toBeNull();
    // A user's click never keeps a guest key.
    await service.rpc("record_topic_click", { p_run_id: bobRun, p_topic: 1, p_user_id: bob.id, p_guest_key: "device:2" });
    const { rows } = await pool.query("select count(*)::int as n from public.search_topic_clicks where guest_key = 'device:2'");
    expect(rows[0].n).toBe(0);
  });

  it("counts are public (clicks and distinct clickers, never who); each user reads only their own clicks", async () => {
    const { data } = await anon.rpc("search_topic_click_counts", { p_run_id: bobRun });
    const counts = [...(data ?? [])].sort((a, b) => a.topic - b.topic);
    expect(counts).toEqual([
      { topic: 0, clicks: 3, clickers: 2 },
      { topic: 1, clicks: 2, clickers: 1 },
    ]);
    const a = await alice.db.rpc("my_topic_clicks", { p_limit: 10 });
    expect((a.data as { topic: number; query: string }[] | null)?.map((r) => [r.topic, r.query])).toEqual([[0, "drones"]]);
    const b = await bob.db.rpc("my_topic_clicks", { p_limit: 10 });
    expect((b.data as { topic: number }[] | null)?.map((r) => r.topic)).toEqual([1, 1]);
    expect((await anon.rpc("my_topic_clicks", { p_limit: 10 })).error?.code).toBe("42501");
  });
});

describe("topic_model_sample", () => {
  it("draws exactly the aggregate's seeded sample (md5 order) and reports the cohort", async () => {
    const { data, error } = await alice.db.rpc("topic_model_sample", { p_sample_size: 50, p_seed: 42, p_jurisdictions: ["PL"] });
    expect(error).toBeNull();
    const got = data as { corpus_size: number; rows: { id: string; full_text?: string; jurisdiction: string; summary: string }[] };
    const cohort = (await pool.query<{ id: string }>("select id::text from public.judgments where jurisdiction = 'PL'")).rows;
    expect(got.corpus_size).toBe(cohort.length);
    expect(got.rows.map((r) => r.id).sort()).toEqual(seededSample(cohort, 50, 42).map((r) => r.id).sort());
    expect(got.rows.every((r) => r.jurisdiction === "PL" && r.full_text === undefined && typeof r.summary === "string")).toBe(true);
  });

  it("returns exactly the columns the topic model reads (the SQL names them; this keeps it in step with the registry)", async () => {
    const { data } = await alice.db.rpc("topic_model_sample", { p_sample_size: 1, p_seed: 1 });
    const row = (data as { rows: Record<string, unknown>[] }).rows[0];
    const needed = new Set(["id", "case_number", "decision_date", "jurisdiction", "judges", ...ANALYSIS_FIELDS, ...NAME_FIELDS]);
    expect(Object.keys(row).sort()).toEqual([...needed].sort());
  });

  it("a filter object narrows the cohort through the one filter predicate", async () => {
    const { data } = await alice.db.rpc("topic_model_sample", { p_filters: { jurisdiction: ["UK"] }, p_sample_size: 10, p_seed: 1 });
    const got = data as { corpus_size: number; rows: { jurisdiction: string }[] };
    const n = (await pool.query("select count(*)::int as n from public.judgments where jurisdiction = 'UK' and base_extraction_status = 'completed'")).rows[0].n;
    expect(got.corpus_size).toBe(n);
    expect(got.rows).toHaveLength(10);
    expect(got.rows.every((r) => r.jurisdiction === "UK")).toBe(true);
  });
});
