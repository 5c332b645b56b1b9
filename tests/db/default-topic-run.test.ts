/**
 * The default topic run (lib/backend/topics/runs.ts ensureDefaultTopicRun, stored by the launcher's topics
 * index job when no public run exists): computed with the default params and seed 42 over the corpus, stored with no
 * user (store_default_search_topics_run, service role only, nothing when a public run exists; a researcher's own run
 * is not one, P-83), read by nobody through RLS but
 * served by latest_search_topics_run(), and the topics index built from it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/supabase/db-client";
import { computeTopicRun, defaultTopicRequest, ensureDefaultTopicRun } from "@/lib/backend/topics/runs";
import { topicsIndexOf } from "@/lib/backend/topics/index-build";
import { adminPool } from "../helpers/stack";
import { serviceClient } from "../helpers/supabase";

const pool = adminPool();
afterAll(() => pool.end());
const service = serviceClient() as unknown as DbClient;

describe("default topic run", () => {
  it("the default request is the issue's defaults with seed 42", () => {
    expect(defaultTopicRequest()).toMatchObject({ sample_size: 500, num_topics: 8, num_keywords: 8, time_periods: 6, seed: 42 });
  });

  it("stored with no user only when no run exists; latest_search_topics_run serves it; callers cannot read it", async () => {
    const result = await computeTopicRun(service, defaultTopicRequest());
    expect(result.topics.length).toBe(8);
    expect(result.params.seed).toBe(42);
    const runId = randomUUID();
    const client = await pool.connect();
    try {
      // Inside a transaction that is rolled back: the shared test database keeps its runs.
      await client.query("begin");
      await client.query("delete from public.search_topics_runs");
      // A researcher's own run is not public (P-83): it does not stand in for the default run.
      const researcher = (await client.query<{ id: string }>("select id from auth.users order by created_at limit 1")).rows[0].id;
      const privateRun = randomUUID();
      await client.query("insert into public.search_topics_runs (run_id, user_id, params, result, topic_count, document_count, computed_ms) values ($1, $2, '{}', $3, 0, 0, 1)", [
        privateRun,
        researcher,
        JSON.stringify({ topics: [] }),
      ]);
      const store = (id: string) =>
        client.query<{ stored: boolean }>("select public.store_default_search_topics_run($1, $2, $3, 5) as stored", [
          id,
          JSON.stringify(result.params),
          JSON.stringify(result),
        ]);
      expect((await store(runId)).rows[0].stored).toBe(true);
      // Once: a second call (another launcher) stores nothing.
      expect((await store(randomUUID())).rows[0].stored).toBe(false);
      const { rows } = await client.query<{ user_id: string | null; topic_count: number; document_count: number }>(
        "select user_id, topic_count, document_count from public.search_topics_runs where public_index",
      );
      expect(rows).toEqual([{ user_id: null, topic_count: 8, document_count: result.model.documents }]);
      // A researcher's run stored after it is theirs only: the public latest run stays the default one.
      await client.query("update public.search_topics_runs set created_at = now() + interval '1 minute' where run_id = $1", [privateRun]);

      const latest = (await client.query<{ r: Parameters<typeof topicsIndexOf>[0] }>("select public.latest_search_topics_run() as r")).rows[0].r;
      expect(latest.run_id).toBe(runId);
      const index = topicsIndexOf(latest);
      expect(index.topics.map((t) => t.id)).toEqual(result.topics.map((t) => `${runId}_${t.id}`));
      expect(index.topics[0].keywords.length).toBe(8);

      await client.query("savepoint as_user");
      await client.query("set local role authenticated");
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: randomUUID(), role: "authenticated" })]);
      expect((await client.query("select count(*)::int as n from public.search_topics_runs")).rows[0].n).toBe(0);
      await expect(client.query("select public.store_default_search_topics_run($1, '{}', '{\"topics\": []}', 0)", [randomUUID()])).rejects.toThrow(
        /permission denied/,
      );
      await client.query("rollback to savepoint as_user");
    } finally {
      await client.query("rollback");
      client.release();
    }
  });

  it("stores nothing when a public run exists", async () => {
    const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from public.search_topics_runs where public_index");
    if (rows[0].n === 0) {
      // A fresh test database: the first call stores the default run, the second finds it.
      expect(await ensureDefaultTopicRun(service)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await ensureDefaultTopicRun(service)).toBeNull();
    const after = await pool.query<{ n: number }>("select count(*)::int as n from public.search_topics_runs where user_id is null");
    expect(after.rows[0].n).toBeLessThanOrEqual(1);
  });
});
