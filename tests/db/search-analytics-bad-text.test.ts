/**
 * One searcher's query must not lose other searchers' history rows. A NUL byte or an unpaired surrogate in one query
 * made the whole record_searches batch fail (the jsonb argument is refused before the function runs), and after
 * SEARCH_ANALYTICS_MAX_ATTEMPTS retries the batch was dropped with every other user's rows in it. Now the query is
 * stored without NUL and with U+FFFD for an unpaired surrogate, and a batch the database refuses as data (SQLSTATE
 * class 22) is written row by row, dropping only the refused row. Against the real database through the gateway;
 * the flush window is set far beyond the test, so only the explicit flushes write anything.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushSearchRecords, queueSearchRecord, queuedSearchRecordCount, recordSearches, storableQuery } from "@/lib/backend/search-analytics";
import { resetConfigForTests } from "@/lib/config";
import { adminPool } from "../helpers/stack";
import { serviceClient, userWithToken } from "../helpers/supabase";

const pool = adminPool();
const db = () => serviceClient();
let alice: string;
let bob: string;
let carol: string;

beforeAll(async () => {
  Object.assign(process.env, { SEARCH_ANALYTICS_FLUSH_MS: "600000", SEARCH_ANALYTICS_BATCH_MAX: "1000" });
  resetConfigForTests();
  [alice, bob, carol] = (await Promise.all([userWithToken("nul-a"), userWithToken("nul-b"), userWithToken("nul-c")])).map((u) => u.id);
});

afterAll(async () => {
  await pool.query("drop trigger if exists bad_text_refuse on public.search_analytics");
  await pool.query("drop function if exists public.bad_text_refuse()");
  for (const k of ["SEARCH_ANALYTICS_FLUSH_MS", "SEARCH_ANALYTICS_BATCH_MAX"]) delete process.env[k];
  resetConfigForTests();
  await pool.end();
});

async function queriesOf(tag: string): Promise<{ query: string; user: string }[]> {
  const { rows } = await pool.query<{ query: string; user_id: string }>(
    "select query, user_id::text from public.search_analytics where query like '%' || $1 || '%' order by query",
    [tag],
  );
  return rows.map((r) => ({ query: r.query, user: r.user_id }));
}

const record = (query: string, userId: string | null) => ({ query, hitCount: 1, latencyMs: 1, mode: "autocomplete", userId });

describe("search analytics: one bad query does not drop other users' rows", () => {
  it("storableQuery strips NUL and replaces unpaired surrogates, keeping real pairs", () => {
    expect(storableQuery("robbery\u0000")).toBe("robbery");
    expect(storableQuery("a\ud800b\udc00c")).toBe("a\ufffdb\ufffdc");
    expect(storableQuery("rozbój 😀")).toBe("rozbój 😀");
  });

  it("a queued NUL or lone-surrogate query is written cleaned, in one batch with the other users' rows", async () => {
    const tag = randomUUID().slice(0, 8);
    queueSearchRecord(db, record(`robbery ${tag}\u0000`, null));
    queueSearchRecord(db, record(`appeal ${tag}`, alice));
    queueSearchRecord(db, record(`sentence ${tag} \ud800`, bob));
    queueSearchRecord(db, record(`fraud ${tag}`, carol));
    expect(await flushSearchRecords(db)).toBe(4);
    expect(queuedSearchRecordCount()).toBe(0);
    const rows = await queriesOf(tag);
    expect(rows.map((r) => r.query)).toEqual([`appeal ${tag}`, `fraud ${tag}`, `robbery ${tag}`, `sentence ${tag} \ufffd`]);
    expect(rows.filter((r) => r.user === alice || r.user === carol).length).toBe(2);
  });

  it("a batch refused as data (class 22) is written row by row: only the refused row is dropped, nothing is requeued", async () => {
    const tag = randomUUID().slice(0, 8);
    // A stand-in for any value the table refuses as data (a check, a type): SQLSTATE 22023 for one query.
    await pool.query(`
      create or replace function public.bad_text_refuse() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.query like 'refused ${tag}%' then raise exception 'bad text test: refused as data' using errcode = '22023'; end if;
        return new;
      end $$`);
    await pool.query(`create or replace trigger bad_text_refuse before insert on public.search_analytics
      for each row execute function public.bad_text_refuse()`);
    queueSearchRecord(db, record(`kept ${tag} 1`, alice));
    queueSearchRecord(db, record(`refused ${tag}`, bob));
    queueSearchRecord(db, record(`kept ${tag} 2`, carol));
    expect(await flushSearchRecords(db)).toBe(2);
    expect(queuedSearchRecordCount()).toBe(0);
    expect((await queriesOf(tag)).map((r) => r.query)).toEqual([`kept ${tag} 1`, `kept ${tag} 2`]);

    // The direct path (scripts) does the same.
    const tag2 = randomUUID().slice(0, 8);
    await pool.query(`
      create or replace function public.bad_text_refuse() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.query like 'refused ${tag2}%' then raise exception 'bad text test: refused as data' using errcode = '22023'; end if;
        return new;
      end $$`);
    expect(await recordSearches(db(), [record(`refused ${tag2}`, alice), record(`kept ${tag2}`, bob)])).toBe(1);
    expect((await queriesOf(tag2)).map((r) => r.query)).toEqual([`kept ${tag2}`]);
  });
});
