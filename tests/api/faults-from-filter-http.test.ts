/**
 * Fault scenarios 19-21 (from-filter failing part-way, its clean-up failing, a crash mid-way) over real HTTP: a
 * temporary trigger refuses a member row once 25 of a marked collection are written, and refuses deleting that
 * collection too (so no clean-up could help). POST /api/collections/from-filter answers an error and leaves no
 * collection and no member rows, because the whole call is one transaction (security review L9). The trigger acts only
 * on collections named by this file, so other suites on the shared app are unaffected.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
const MARK = `faults-ff-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  await pool.query(`
    create or replace function public.faults_ff_http() returns trigger language plpgsql set search_path = '' as $$
    declare v_name text;
    begin
      if tg_table_name = 'collections' then
        if old.name like '${MARK}%' then raise exception 'faults test: clean-up refused'; end if;
        return old;
      end if;
      select c.name into v_name from public.collections c where c.id = new.collection_id;
      if v_name = '${MARK}-fail' and (select count(*) from public.collection_documents d where d.collection_id = new.collection_id) >= 25 then
        raise exception 'faults test: row refused';
      end if;
      return new;
    end $$;
    create or replace trigger faults_ff_http_insert before insert on public.collection_documents
      for each row execute function public.faults_ff_http();
    create or replace trigger faults_ff_http_delete before delete on public.collections
      for each row execute function public.faults_ff_http();
  `);
});

afterAll(async () => {
  await pool.query(`
    drop trigger if exists faults_ff_http_insert on public.collection_documents;
    drop trigger if exists faults_ff_http_delete on public.collections;
    drop function if exists public.faults_ff_http();
  `);
  await pool.query("delete from public.collections where name like $1", [`${MARK}%`]);
  await pool.end();
});

async function leftBehind(userId: string, name: string) {
  const { rows } = await pool.query<{ collections: number; members: number }>(
    `select (select count(*)::int from public.collections where user_id = $1 and name = $2) as collections,
            (select count(*)::int from public.collection_documents d join public.collections c on c.id = d.collection_id
              where c.user_id = $1 and c.name = $2) as members`,
    [userId, name],
  );
  return rows[0];
}

describe("from-filter over HTTP with the insert refused mid-way (rows 19-21)", () => {
  it("answers a 5xx envelope and leaves no collection, no member rows; the same user then saves the cohort whole", async () => {
    const { browser, user } = await signedInBrowser();
    const res = await browser.post("/api/collections/from-filter", { name: `${MARK}-fail`, filters: { jurisdiction: ["PL"] } });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const body = (await res.json()) as { detail: { code: string; message: string } };
    expect(typeof body.detail.code).toBe("string");
    // No internals: neither the trigger's message nor SQL reaches the caller.
    expect(JSON.stringify(body)).not.toContain("faults test");
    expect(await leftBehind(user.id, `${MARK}-fail`)).toEqual({ collections: 0, members: 0 });

    const ok = await browser.post("/api/collections/from-filter", { name: `${MARK}-ok`, filters: { jurisdiction: ["PL"] } });
    expect(ok.status).toBe(201);
    const saved = (await ok.json()) as { collections: { added_count: number }[]; total_matched: number };
    expect(saved.collections[0].added_count).toBe(saved.total_matched);
    expect(await leftBehind(user.id, `${MARK}-ok`)).toEqual({ collections: 1, members: saved.total_matched });
  }, 120_000);
});
