/**
 * Search-analytics rows survive a stop and a failed write. Each test runs
 * its own app server (tests/helpers/extra-app.ts) against the real test stack, over real HTTP, and reads the rows back
 * from the real database.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startExtraApp } from "../helpers/extra-app";
import { Browser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import type { TestApp } from "../helpers/test-app";
import { userWithToken } from "../helpers/supabase";

const pool = adminPool();
const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
  await pool.query("drop trigger if exists durability_refuse_analytics on public.search_analytics");
  await pool.query("drop function if exists public.durability_refuse_analytics()");
  await pool.query("drop sequence if exists public.durability_analytics_refusals");
  await pool.end();
});

async function rowsOf(userId: string): Promise<string[]> {
  const { rows } = await pool.query<{ query: string }>("select query from public.search_analytics where user_id = $1 order by query", [userId]);
  return rows.map((r) => r.query);
}

async function search(app: TestApp, token: string, queries: string[]): Promise<void> {
  const b = new Browser(app.url);
  for (const q of queries) {
    const res = await b.get(`/api/search/documents?q=${encodeURIComponent(q)}`, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
  }
}

describe("search analytics survive (L8)", () => {
  it("SIGTERM right after the searches: the queued rows are written before the app exits", { timeout: 600_000 }, async () => {
    // A flush window far longer than the test: only the shutdown flush can write these rows.
    const app = await startExtraApp(stackEnv(), { SEARCH_ANALYTICS_FLUSH_MS: "600000" });
    apps.push(app);
    const user = await userWithToken("sigterm");
    const queries = Array.from({ length: 5 }, (_, i) => `sigterm probe ${i} ${randomUUID().slice(0, 8)}`).sort();
    await search(app, user.token, queries);
    expect(await rowsOf(user.id)).toEqual([]); // still queued in the app
    await app.stop(); // SIGTERM, waits for the exit (server/launcher/processes.ts stopChild)
    expect(await rowsOf(user.id)).toEqual(queries);
  });

  it("a batch the database refuses is written once it recovers", { timeout: 600_000 }, async () => {
    // The database refuses every batch holding this file's marker, counting each refusal in a sequence (a sequence
    // advances even when the transaction that called it rolls back), until the trigger is dropped.
    const marker = `refused-${randomUUID().slice(0, 8)}`;
    await pool.query("create sequence if not exists public.durability_analytics_refusals");
    await pool.query(`
      create or replace function public.durability_refuse_analytics() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.query like '${marker}%' then
          perform nextval('public.durability_analytics_refusals');
          raise exception 'durability test: analytics write refused';
        end if;
        return new;
      end $$`);
    await pool.query("grant usage on sequence public.durability_analytics_refusals to service_role");
    const refusals = async () =>
      Number((await pool.query<{ n: string }>("select case when is_called then last_value else 0 end as n from public.durability_analytics_refusals")).rows[0].n);
    const before = await refusals();

    const app = await startExtraApp(stackEnv(), { SEARCH_ANALYTICS_FLUSH_MS: "100", SEARCH_ANALYTICS_MAX_ATTEMPTS: "1000" });
    apps.push(app);
    const user = await userWithToken("refused");
    await pool.query(`create or replace trigger durability_refuse_analytics before insert on public.search_analytics
      for each row execute function public.durability_refuse_analytics()`);
    const queries = Array.from({ length: 3 }, (_, i) => `${marker} ${i}`);
    await search(app, user.token, queries);

    for (let i = 0; i < 600 && (await refusals()) === before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await refusals()).toBeGreaterThan(before);
    expect(await rowsOf(user.id)).toEqual([]);

    await pool.query("drop trigger durability_refuse_analytics on public.search_analytics");
    let rows: string[] = [];
    for (let i = 0; i < 600 && rows.length < queries.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await rowsOf(user.id);
    }
    expect(rows).toEqual(queries);
  });
});
