/**
 * The search-analytics queue's bounds, against the real database through the gateway. A failed
 * write requeues its rows, each row is tried at most SEARCH_ANALYTICS_MAX_ATTEMPTS times, and past
 * SEARCH_ANALYTICS_QUEUE_CAP the oldest rows are dropped. The flush window is set far beyond the test, so only the
 * explicit flushes below write anything. The HTTP side (SIGTERM, a refused batch) is in
 * tests/api/faults-stack-analytics.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushSearchRecords, queueSearchRecord, queuedSearchRecordCount } from "@/lib/backend/search-analytics";
import { resetConfigForTests } from "@/lib/config";
import { adminPool } from "../helpers/stack";
import { serviceClient, userWithToken } from "../helpers/supabase";

const pool = adminPool();
const db = () => serviceClient();
let userId: string;

beforeAll(async () => {
  Object.assign(process.env, {
    SEARCH_ANALYTICS_FLUSH_MS: "600000",
    SEARCH_ANALYTICS_BATCH_MAX: "1000",
    SEARCH_ANALYTICS_QUEUE_CAP: "3",
    SEARCH_ANALYTICS_MAX_ATTEMPTS: "2",
  });
  resetConfigForTests();
  userId = (await userWithToken("queue")).id;
});

afterAll(async () => {
  await pool.query("drop trigger if exists durability_refuse_queue on public.search_analytics");
  await pool.query("drop function if exists public.durability_refuse_queue()");
  for (const k of ["SEARCH_ANALYTICS_FLUSH_MS", "SEARCH_ANALYTICS_BATCH_MAX", "SEARCH_ANALYTICS_QUEUE_CAP", "SEARCH_ANALYTICS_MAX_ATTEMPTS"]) delete process.env[k];
  resetConfigForTests();
  await pool.end();
});

async function rowsOf(): Promise<string[]> {
  const { rows } = await pool.query<{ query: string }>("select query from public.search_analytics where user_id = $1 order by query", [userId]);
  return rows.map((r) => r.query);
}

const record = (query: string) => ({ query, hitCount: 1, latencyMs: 1, mode: "text", userId });

describe("search analytics queue bounds (L8)", () => {
  it("past the cap the oldest rows are dropped; the newest are written", async () => {
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 5; i++) queueSearchRecord(db, record(`cap ${tag} ${i}`));
    expect(queuedSearchRecordCount()).toBe(3);
    expect(await flushSearchRecords(db)).toBe(3);
    expect((await rowsOf()).filter((q) => q.includes(tag))).toEqual([`cap ${tag} 2`, `cap ${tag} 3`, `cap ${tag} 4`]);
  });

  it("a refused write is requeued, and dropped after SEARCH_ANALYTICS_MAX_ATTEMPTS failures", async () => {
    const tag = randomUUID().slice(0, 8);
    await pool.query(`
      create or replace function public.durability_refuse_queue() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.query like 'refuse ${tag}%' then raise exception 'durability test: refused'; end if;
        return new;
      end $$`);
    await pool.query(`create or replace trigger durability_refuse_queue before insert on public.search_analytics
      for each row execute function public.durability_refuse_queue()`);
    queueSearchRecord(db, record(`refuse ${tag} 0`));
    queueSearchRecord(db, record(`refuse ${tag} 1`));
    expect(await flushSearchRecords(db)).toBe(0);
    expect(queuedSearchRecordCount()).toBe(2); // requeued after the first failure
    expect(await flushSearchRecords(db)).toBe(0);
    expect(queuedSearchRecordCount()).toBe(0); // second failure: the attempts are spent
    expect((await rowsOf()).filter((q) => q.includes(tag))).toEqual([]);
  });

  it("a requeued row is written once the database accepts it again", async () => {
    const tag = randomUUID().slice(0, 8);
    await pool.query(`
      create or replace function public.durability_refuse_queue() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.query like 'later ${tag}%' then raise exception 'durability test: refused'; end if;
        return new;
      end $$`);
    queueSearchRecord(db, record(`later ${tag} 0`));
    expect(await flushSearchRecords(db)).toBe(0);
    expect(queuedSearchRecordCount()).toBe(1);
    await pool.query("drop trigger durability_refuse_queue on public.search_analytics");
    expect(await flushSearchRecords(db)).toBe(1);
    expect(await rowsOf()).toContain(`later ${tag} 0`);
  });
});
