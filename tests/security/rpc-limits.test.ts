import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgmentIds } from "../helpers/security-fixtures";
import { adminPool, stackEnv } from "../helpers/stack";
import { userWithToken } from "../helpers/supabase";

/**
 * The caps the product promises, attacked the way security review round 3 (#4, #5) did: each RPC called straight
 * through the gateway (`/rest/v1/rpc/<fn>`, apikey = anon, Bearer = a user's own token, no web route in between) with
 * the cap arguments raised, and again with the anon key alone. Before migration 20261207100100 every call below that
 * names a raised cap succeeded; the caps are now the database's (app_limits, P-81), and topic runs are stored by the
 * server only (P-83).
 *
 * Also the schema caps (fields per schema, values per enum field) on create_extraction_schema and the sample cap of
 * topic_model_sample, which took no cap argument but were bounded by the web tier only.
 *
 * Three caps (5,000 documents twice, a 2,000 sample) are larger than the test corpus (600 judgments): for those the
 * database's cap is lowered below the corpus for the one call and put back at once, which is what shows the argument
 * no longer decides.
 */

const pool = adminPool();
const gw = (path: string) => new URL(path, stackEnv().supabaseUrl as string).toString();
const anonKey = () => stackEnv().anonKey as string;
const HUGE = 1_000_000;

let user: Awaited<ReturnType<typeof userWithToken>>;
/** A queue no worker listens to: jobs put there by the test are never picked up. */
const queue = `rpc-limits-${randomUUID().slice(0, 8)}`;

async function rpc(name: string, body: Record<string, unknown>, token: string | null): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": "application/json", apikey: anonKey() };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(gw(`/rest/v1/rpc/${name}`), { method: "POST", headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** Run `fn` with the database's cap `name` set to `value`, then put the old value back (whatever `fn` did). */
async function withDatabaseCap<T>(name: string, value: number, fn: () => Promise<T>): Promise<T> {
  const { rows } = await pool.query<{ value: number }>("select value from public.app_limits where name = $1", [name]);
  expect(rows).toHaveLength(1);
  await pool.query("update public.app_limits set value = $2 where name = $1", [name, value]);
  try {
    return await fn();
  } finally {
    await pool.query("update public.app_limits set value = $2 where name = $1", [name, rows[0].value]);
  }
}

const base = { name: "Base schema", fields: [{ name: "keywords", type: "string[]", required: false }] };
const jobArgs = (ids: string[], extra: Record<string, unknown> = {}) => ({
  p_schema_id: null,
  p_base: base,
  p_document_ids: ids,
  p_collection_id: null,
  p_idempotency_key: null,
  p_mode: "rules",
  p_max_running: HUGE,
  p_max_documents: HUGE,
  ...extra,
});

/** `n` jobs of the user in `status`, written as the owner on a queue nobody serves. */
async function jobsOf(n: number, status: "running" | "completed_with_errors", failedDocument?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.extraction_jobs (user_id, schema_key, schema_name, mode, status, total, queue)
       values ($1, 'base', 'Base schema', 'rules', $2, 1, $3) returning id`,
      [user.id, status, queue],
    );
    ids.push(rows[0].id);
    if (failedDocument) {
      await pool.query("insert into public.extraction_job_documents (job_id, document_id, position, status) values ($1, $2, 1, 'failed')", [
        rows[0].id,
        failedDocument,
      ]);
    }
  }
  return ids;
}

const activeJobs = async () =>
  (await pool.query<{ n: number }>("select count(*)::int as n from public.extraction_jobs where user_id = $1 and status in ('queued', 'running')", [user.id]))
    .rows[0].n;

beforeAll(async () => {
  user = await userWithToken("rpc-limits");
}, 60_000);

afterAll(async () => {
  await pool.query("delete from auth.users where id = $1", [user.id]);
  await pool.end();
});

describe("extraction jobs: caps from the database, whatever the arguments say", () => {
  it("create_extraction_job with p_max_running 1,000,000 → outcome limit at the configured 3 queued or running jobs", async () => {
    await jobsOf(3, "running");
    const ids = await judgmentIds(pool, 1);
    const r = await rpc("create_extraction_job", jobArgs(ids), user.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ outcome: "limit" });
    expect(await activeJobs()).toBe(3);
    await pool.query("delete from public.extraction_jobs where user_id = $1", [user.id]);
  });

  it("retry_extraction_job with p_max_running 1,000,000 → outcome limit while 3 jobs are active", async () => {
    const [doc] = await judgmentIds(pool, 1);
    const [finished] = await jobsOf(1, "completed_with_errors", doc);
    await jobsOf(3, "running");
    const r = await rpc("retry_extraction_job", { p_job_id: finished, p_max_running: HUGE }, user.token);
    expect(r.body).toEqual({ outcome: "limit" });
    expect((await pool.query("select status from public.extraction_jobs where id = $1", [finished])).rows[0].status).toBe("completed_with_errors");
    await pool.query("delete from public.extraction_jobs where user_id = $1", [user.id]);
  });

  it("create_extraction_job with p_max_documents 1,000,000 → too_many past the database's document cap; nothing created", async () => {
    const ids = await judgmentIds(pool, 600);
    const r = await withDatabaseCap("EXTRACTION_MAX_DOCUMENTS", 599, () => rpc("create_extraction_job", jobArgs(ids), user.token));
    expect(r.body).toEqual({ outcome: "too_many", count: 600 });
    expect((await pool.query("select count(*)::int as n from public.extraction_jobs where user_id = $1", [user.id])).rows[0].n).toBe(0);
  });

  it("p_mode and p_base are checked: an unknown mode, a base schema past SCHEMA_MAX_FIELDS, or both a schema and a base → 400 22023", async () => {
    const ids = await judgmentIds(pool, 1);
    const many = { name: "x", fields: Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, type: "string" })) };
    for (const [extra, detail] of [
      [{ p_mode: "gpu-please" }, "mode"],
      [{ p_mode: null }, "mode"],
      [{ p_base: many }, "base"],
      [{ p_base: { name: "x", fields: [{ name: "Bad Name", type: "string" }] } }, "base"],
      [{ p_base: { name: "x", fields: [{ name: "a", type: "code" }] } }, "base"],
      [{ p_schema_id: randomUUID() }, "base"],
    ] as const) {
      const r = await rpc("create_extraction_job", jobArgs(ids, extra), user.token);
      expect([r.status, r.body.code, r.body.details], JSON.stringify(extra).slice(0, 80)).toEqual([400, "22023", detail]);
    }
    expect((await pool.query("select count(*)::int as n from public.extraction_jobs where user_id = $1", [user.id])).rows[0].n).toBe(0);
  });
});

describe("saved searches", () => {
  const args = (name: string, params: Record<string, unknown> = { mode: "text", filter: "", sort: "" }) => ({
    p_name: name,
    p_kind: "search",
    p_query: "theft",
    p_params: params,
    p_folder: null,
    p_alert_enabled: false,
    p_alert_frequency: "weekly",
    p_max: HUGE,
  });
  const count = async () => (await pool.query<{ n: number }>("select count(*)::int as n from public.saved_searches where user_id = $1", [user.id])).rows[0].n;

  it("create_saved_search with p_max 1,000,000 stores the 200th and refuses the 201st (SS001)", async () => {
    // 198 written as the owner (the trigger holds them to the cap too), then two through the gateway.
    await pool.query(
      `insert into public.saved_searches (user_id, name, kind, params)
       select $1, 'seeded ' || g, 'search', '{"mode":"text","filter":"","sort":""}' from generate_series(1, 198) g`,
      [user.id],
    );
    expect((await rpc("create_saved_search", args("199th"), user.token)).status).toBe(200);
    const at = await rpc("create_saved_search", args("200th"), user.token);
    expect(at.status).toBe(200);
    const over = await rpc("create_saved_search", args("201st"), user.token);
    expect([over.status, over.body.code]).toEqual([400, "SS001"]);
    expect(await count()).toBe(200);
    await pool.query("delete from public.saved_searches where user_id = $1", [user.id]);
  });

  it("params that do not fit the kind are refused (22023), nothing stored", async () => {
    for (const params of [
      { mode: "text", filter: 123 },
      { mode: "vector-all-the-things" },
      { mode: "text", evil: "x" },
      { mode: "text", filter: "x".repeat(8193) },
      { mode: "text", url: "https://evil.example/" },
    ]) {
      const r = await rpc("create_saved_search", args("bad", params), user.token);
      expect([r.status, r.body.code], JSON.stringify(params).slice(0, 60)).toEqual([400, "22023"]);
    }
    expect(await count()).toBe(0);
  });
});

describe("collections from a filter", () => {
  it("create_collection_from_filter with p_cap 1,000,000 → SC004 past the database's cap, no collection left", async () => {
    const before = (await pool.query<{ n: number }>("select count(*)::int as n from public.collections where user_id = $1", [user.id])).rows[0].n;
    const matched = (await pool.query<{ n: number }>("select count(*)::int as n from public.judgments where base_extraction_status = 'completed'")).rows[0].n;
    expect(matched).toBeGreaterThan(10);
    const r = await withDatabaseCap("SAVE_FROM_FILTER_MAX_DOCUMENTS", matched - 1, () =>
      rpc("create_collection_from_filter", { p_name: "all", p_description: null, p_filters: {}, p_text_query: null, p_cap: HUGE }, user.token),
    );
    expect([r.status, r.body.code, r.body.details]).toEqual([400, "SC004", String(matched)]);
    expect((await pool.query<{ n: number }>("select count(*)::int as n from public.collections where user_id = $1", [user.id])).rows[0].n).toBe(before);
  });
});

describe("extraction schemas and topic samples", () => {
  const field = (i: number, extra: Record<string, unknown> = {}) => ({ name: `f${i}`, type: "string", description: "", required: false, ...extra });

  it("create_extraction_schema past SCHEMA_MAX_FIELDS or SCHEMA_MAX_ENUM_VALUES → 400 22023 naming the cap; nothing stored", async () => {
    const schema = (fields: unknown[]) => ({ p_name: "wide", p_description: null, p_fields: fields, p_json_schema: { type: "object" }, p_note: null });
    const wide = await rpc("create_extraction_schema", schema(Array.from({ length: 101 }, (_, i) => field(i))), user.token);
    expect([wide.status, wide.body.code, wide.body.details]).toEqual([400, "22023", "SCHEMA_MAX_FIELDS"]);
    const values = Array.from({ length: 201 }, (_, i) => `v${i}`);
    const long = await rpc("create_extraction_schema", schema([field(0, { type: "enum", enum_values: values })]), user.token);
    expect([long.status, long.body.code, long.body.details]).toEqual([400, "22023", "SCHEMA_MAX_ENUM_VALUES"]);
    expect((await pool.query("select count(*)::int as n from public.extraction_schemas where user_id = $1", [user.id])).rows[0].n).toBe(0);
    const ok = await rpc("create_extraction_schema", schema(Array.from({ length: 100 }, (_, i) => field(i))), user.token);
    expect(ok.status).toBe(200);
    await pool.query("delete from public.extraction_schemas where user_id = $1", [user.id]);
  });

  it("topic_model_sample with p_sample_size 20,000 draws at most the database's TOPIC_SAMPLE_SIZE_MAX", async () => {
    const r = await withDatabaseCap("TOPIC_SAMPLE_SIZE_MAX", 50, () => rpc("topic_model_sample", { p_sample_size: 20_000, p_seed: 1 }, user.token));
    expect(r.status).toBe(200);
    expect((r.body.rows as unknown[]).length).toBe(50);
  });
});

describe("topic runs are the server's to store (the public landing page)", () => {
  const run = () => ({
    p_run_id: randomUUID(),
    p_params: {},
    p_computed_ms: 1,
    p_result: {
      periods: [],
      model: { documents: 1 },
      topics: [{ id: 0, label: "Visit evil.example", keywords: [{ term: "x", weight: 1 }], size: 1, coherence: 1, trend: "emerging", slope: 1, weights_by_period: [] }],
    },
  });

  it("create_search_topics_run with a user's token → 403 42501; nothing stored, the public run unchanged", async () => {
    const latest = async () => (await pool.query("select public.latest_search_topics_run() as r")).rows[0].r as unknown;
    const before = await latest();
    const r = await rpc("create_search_topics_run", run(), user.token);
    expect([r.status, r.body.code]).toEqual([403, "42501"]);
    const stored = await rpc("store_search_topics_run", { ...run(), p_user_id: user.id, p_public: true }, user.token);
    expect([stored.status, stored.body.code]).toEqual([403, "42501"]);
    expect((await pool.query("select count(*)::int as n from public.search_topics_runs where user_id = $1", [user.id])).rows[0].n).toBe(0);
    expect(await latest()).toEqual(before);
  });
});

describe("the caps themselves", () => {
  it("set_app_limits with a user's token → 403 42501; the caps are unchanged", async () => {
    const before = (await pool.query("select name, value from public.app_limits order by name")).rows;
    const r = await rpc("set_app_limits", { p_limits: { SAVED_SEARCHES_MAX_PER_USER: HUGE } }, user.token);
    expect([r.status, r.body.code]).toEqual([403, "42501"]);
    expect((await pool.query("select name, value from public.app_limits order by name")).rows).toEqual(before);
  });
});

describe("the anon key alone", () => {
  it("every capped or server-only RPC → 401 42501", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["create_extraction_job", jobArgs([])],
      ["retry_extraction_job", { p_job_id: randomUUID(), p_max_running: HUGE }],
      ["create_saved_search", { p_name: "x", p_kind: "search", p_query: "", p_params: {}, p_folder: null, p_alert_enabled: false, p_alert_frequency: "weekly", p_max: HUGE }],
      ["create_collection_from_filter", { p_name: "all", p_description: null, p_filters: {}, p_text_query: null, p_cap: HUGE }],
      ["create_search_topics_run", { p_run_id: randomUUID(), p_params: {}, p_result: {}, p_computed_ms: 1 }],
      ["store_search_topics_run", { p_run_id: randomUUID(), p_user_id: null, p_params: {}, p_result: {}, p_computed_ms: 1, p_public: true }],
      ["set_app_limits", { p_limits: {} }],
      ["create_extraction_schema", { p_name: "x", p_description: null, p_fields: [], p_json_schema: {}, p_note: null }],
      ["topic_model_sample", { p_sample_size: 20_000, p_seed: 1 }],
    ];
    for (const [name, body] of calls) {
      const r = await rpc(name, body, null);
      expect([r.status, r.body.code], name).toEqual([401, "42501"]);
    }
  });
});
