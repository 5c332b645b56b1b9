/**
 * Topic modelling and the topics routes over real HTTP: auth, validation (422), the quota
 * (429 in the reference shape with Retry-After), determinism, the planted topics of the demo corpus
 * (supabase/seed/planted-topics.ts), owner-only runs, the topics index rebuilt from the latest admin run (meta,
 * trending, autocomplete topic_hits; a researcher's run never replaces it, P-83), clicks per user and per guest
 * device, and my-clicks.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TopicsFileStore } from "@/lib/search/lancedb/topics-store";
import { PLANTED_TOPICS } from "@/supabase/seed/planted-topics";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

const pool = adminPool();

interface Topic {
  id: number;
  label: string;
  keywords: { term: string; weight: number }[];
  size: number;
  coherence: number;
  trend: string;
  slope: number;
  weights_by_period: { period: string; weight: number }[];
  sample_documents: { id: string; case_number: string | null; title: string | null; weight: number }[];
}
interface Run {
  run_id: string;
  topics: Topic[];
  periods: { period: string; documents: number }[];
  params: Record<string, unknown>;
  corpus_size: number;
  computed_ms: number;
}

let alice: Browser;
let bob: Browser;
const users: string[] = [];

beforeAll(async () => {
  // Alice is an admin: her runs become the public topics index (P-83); Bob's runs are his own.
  const a = await signedInBrowser({ admin: true });
  const b = await signedInBrowser();
  alice = a.browser;
  bob = b.browser;
  users.push(a.user.id, b.user.id);
});

afterAll(async () => {
  // Leave the shared stack as it was: no runs, and an empty topics index (autocomplete's mined topics answer again).
  await pool.query("delete from public.search_topics_runs where user_id = any($1::uuid[])", [users]);
  const dir = stackEnv().searchDataDir;
  if (dir) await new TopicsFileStore(dir).replace(null);
  await pool.end();
});

const detail = async (res: Response) => ((await res.json()) as { detail: { code: string; fields?: { field: string }[] } }).detail;

async function analyze(b: Browser, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await b.post("/api/topic-modeling/analyze", body);
  return { status: res.status, text: await res.text() };
}

/** The run without what identifies and times it: the part that must be byte-identical. */
const stable = (text: string) => {
  const { run_id: _id, computed_ms: _ms, ...rest } = JSON.parse(text) as Run;
  return JSON.stringify(rest);
};

/** Poll (bounded) until the topics index serves `runId`: it is rebuilt in the background after a run. */
async function indexServes(runId: string): Promise<Record<string, unknown>> {
  let meta: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) {
    meta = (await (await new Browser().get("/api/search/topics/meta")).json()) as Record<string, unknown>;
    if (meta.run_id === runId) return meta;
    await new Promise((r) => setTimeout(r, 100));
  }
  return meta;
}

describe("who may call (D-16: meta, trending and topic-click are public)", () => {
  it("the run routes and my-clicks need a session; meta and trending answer anyone", async () => {
    const anon = new Browser();
    const id = randomUUID();
    for (const res of [
      await anon.post("/api/topic-modeling/analyze", {}),
      await anon.get("/api/topic-modeling/runs"),
      await anon.get(`/api/topic-modeling/runs/${id}`),
      await anon.get("/api/search/topics/my-clicks"),
    ])
      expect([res.url, res.status]).toEqual([res.url, 401]);
    expect((await anon.get("/api/search/topics/meta")).status).toBe(200);
    expect((await anon.get("/api/search/topics/trending")).status).toBe(200);
  });
});

describe("POST /api/topic-modeling/analyze validation (422 names the field, nothing stored)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["sample_size below 20", { sample_size: 19 }, "sample_size"],
    ["sample_size above 2000", { sample_size: 2001 }, "sample_size"],
    ["sample_size not an integer", { sample_size: 50.5 }, "sample_size"],
    ["num_topics below 2", { num_topics: 1 }, "num_topics"],
    ["num_topics above 30", { num_topics: 31 }, "num_topics"],
    ["num_keywords below 3", { num_keywords: 2 }, "num_keywords"],
    ["num_keywords above 15", { num_keywords: 16 }, "num_keywords"],
    ["time_periods below 2", { time_periods: 1 }, "time_periods"],
    ["time_periods above 12", { time_periods: 13 }, "time_periods"],
    ["seed beyond int32", { seed: 2 ** 31 }, "seed"],
    ["seed a string", { seed: "42" }, "seed"],
    ["jurisdiction outside PL/UK", { jurisdiction: ["DE"] }, "jurisdiction.0"],
    ["jurisdiction not a list", { jurisdiction: "PL" }, "jurisdiction"],
    ["an unknown key", { topics: 3 }, "body"],
  ];
  it.each(cases)("%s", async (_name, body, field) => {
    const before = (await pool.query("select count(*)::int as n from public.search_topics_runs")).rows[0].n;
    const res = await alice.post("/api/topic-modeling/analyze", body);
    expect(res.status).toBe(422);
    const d = await detail(res);
    expect(d.code).toBe("VALIDATION_ERROR");
    expect(d.fields?.map((f) => f.field)).toContain(field);
    expect((await pool.query("select count(*)::int as n from public.search_topics_runs")).rows[0].n).toBe(before);
  });

  it("an unknown filter key is 422 FILTER_INVALID naming it; collection_ids is refused (D-10)", async () => {
    const res = await alice.post("/api/topic-modeling/analyze", { sample_size: 20, filters: { no_such_key: ["x"] } });
    expect(res.status).toBe(422);
    expect(await detail(res)).toMatchObject({ code: "FILTER_INVALID", field: "no_such_key" });
    const col = await alice.post("/api/topic-modeling/analyze", { sample_size: 20, filters: { collection_ids: [] } });
    expect(col.status).toBe(400);
    expect((await detail(col)).code).toBe("COLLECTION_IDS_NOT_ALLOWED");
  });
});

describe("runs: determinism, known answers, owner-only reads, the topics index", () => {
  let planted: Run;

  it("the same request and seed give the same run byte for byte; another seed the same shape", async () => {
    const body = { sample_size: 120, num_topics: 4, num_keywords: 5, time_periods: 4, seed: 7 };
    const a = await analyze(alice, body);
    const b = await analyze(bob, body);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(stable(b.text)).toBe(stable(a.text));
    const runA = JSON.parse(a.text) as Run;
    expect(runA.run_id).not.toBe((JSON.parse(b.text) as Run).run_id);
    expect(runA.params).toEqual({ sample_size: 120, num_topics: 4, num_keywords: 5, time_periods: 4, seed: 7, jurisdiction: null, filters: null });
    expect(runA.topics).toHaveLength(4);
    expect(runA.periods).toHaveLength(4);
    expect(runA.periods.reduce((s, p) => s + p.documents, 0)).toBe(120);
    for (const t of runA.topics) {
      expect(t.keywords).toHaveLength(5);
      expect(t.weights_by_period).toHaveLength(4);
      expect(["emerging", "stable", "declining"]).toContain(t.trend);
      expect(t.trend).toBe(t.slope > 0.1 ? "emerging" : t.slope < -0.1 ? "declining" : "stable");
      expect(t.coherence).toBeGreaterThanOrEqual(-1);
      expect(t.coherence).toBeLessThanOrEqual(1);
    }

    const other = await analyze(alice, { ...body, seed: 8 });
    expect(other.status).toBe(200);
    const runB = JSON.parse(other.text) as Run;
    expect(stable(other.text)).not.toBe(stable(a.text));
    expect(Object.keys(runB).sort()).toEqual(Object.keys(runA).sort());
    expect(runB.topics.map((t) => Object.keys(t).sort())).toEqual(runA.topics.map((t) => Object.keys(t).sort()));
    expect(runB.topics.map((t) => t.keywords.length)).toEqual(runA.topics.map((t) => t.keywords.length));
    expect(runB.corpus_size).toBe(runA.corpus_size);
  });

  it("a jurisdiction restricts the cohort and the sample", async () => {
    const r = await analyze(alice, { sample_size: 40, num_topics: 3, jurisdiction: ["UK", "UK"] });
    expect(r.status).toBe(200);
    const run = JSON.parse(r.text) as Run;
    const uk = (await pool.query("select count(*)::int as n from public.judgments where jurisdiction = 'UK'")).rows[0].n;
    expect(run.corpus_size).toBe(uk);
    expect(run.params.jurisdiction).toEqual(["UK"]);
    const ids = run.topics.flatMap((t) => t.sample_documents.map((d) => d.id));
    const rows = await pool.query("select distinct jurisdiction from public.judgments where id = any($1::uuid[])", [ids]);
    expect(rows.rows.map((x) => x.jurisdiction)).toEqual(["UK"]);
  });

  it("finds both planted topics of the demo corpus, the prison-drones one emerging", async () => {
    const r = await analyze(alice, { sample_size: 500, num_topics: 10, num_keywords: 8, time_periods: 6, seed: 42 });
    expect(r.status).toBe(200);
    planted = JSON.parse(r.text) as Run;
    for (const p of PLANTED_TOPICS) {
      const match = planted.topics.find((t) => t.keywords.filter((k) => p.terms.includes(fold(k.term))).length >= 3);
      expect(match, `planted topic ${p.key}`).toBeDefined();
      if (p.trend) expect(match?.trend, p.key).toBe(p.trend);
      // Its best examples carry the planted keywords.
      const ids = (match as Topic).sample_documents.map((d) => d.id);
      const rows = await pool.query<{ j: string; kw: string[] }>(
        "select jurisdiction as j, coalesce(base_keywords, '{}') as kw from public.judgments where id = any($1::uuid[])",
        [ids],
      );
      for (const row of rows.rows) {
        expect(row.j).toBe(p.jurisdiction);
        expect(row.kw.some((k) => p.phrases.includes(k))).toBe(true);
      }
    }
  });

  it("runs are stored durably and read by their owner only", async () => {
    const list = (await (await alice.get("/api/topic-modeling/runs?limit=100")).json()) as { runs: { run_id: string }[]; total: number };
    expect(list.runs.map((r) => r.run_id)).toContain(planted.run_id);
    expect(list.total).toBe(list.runs.length);
    const bobs = (await (await bob.get("/api/topic-modeling/runs")).json()) as { runs: { run_id: string }[] };
    expect(bobs.runs.map((r) => r.run_id)).not.toContain(planted.run_id);
    expect(bobs.runs).toHaveLength(1);

    const own = await alice.get(`/api/topic-modeling/runs/${planted.run_id}`);
    expect(own.status).toBe(200);
    const stored = (await own.json()) as Run & { created_at: string };
    expect(stored.topics).toEqual(planted.topics);
    expect(stored.params).toEqual(planted.params);
    expect(stored.computed_ms).toBe(planted.computed_ms);
    for (const [b, id] of [
      [bob, planted.run_id],
      [alice, randomUUID()],
      [alice, "not-a-uuid"],
    ] as const) {
      const res = await b.get(`/api/topic-modeling/runs/${id}`);
      expect(res.status).toBe(404);
      expect((await detail(res)).code).toBe("TOPIC_RUN_NOT_FOUND");
    }
    expect((await alice.get("/api/topic-modeling/runs?limit=101")).status).toBe(422);
  });

  it("the topics index follows the latest admin run: meta, trending, autocomplete topic_hits", async () => {
    const meta = await indexServes(planted.run_id);
    expect(meta).toMatchObject({ run_id: planted.run_id, topic_count: 10, document_count: 500 });
    expect(Number.isNaN(Date.parse(String(meta.computed_at)))).toBe(false);

    const trending = (await (await new Browser().get("/api/search/topics/trending?limit=3")).json()) as {
      run_id: string;
      topics: { topic_id: string; label: string; score: number; slope: number; clicks: number }[];
    };
    expect(trending.run_id).toBe(planted.run_id);
    expect(trending.topics).toHaveLength(3);
    const scores = trending.topics.map((t) => t.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(trending.topics[0].slope).toBe(Math.max(...planted.topics.map((t) => t.slope)));
    expect((await new Browser().get("/api/search/topics/trending?limit=31")).status).toBe(422);

    const scam = planted.topics.find((t) => t.keywords.some((k) => fold(k.term) === "wnuczka")) as Topic;
    const ac = (await (await new Browser().get("/api/search/autocomplete?q=wnucz")).json()) as {
      topic_hits: { topic: string; topic_id?: string; keywords?: string[] }[];
    };
    expect(ac.topic_hits[0]).toMatchObject({ topic: scam.label, topic_id: `${planted.run_id}_${scam.id}` });
  });

  it("a researcher's later run is theirs only: the public index, meta and trending stay on the admin's run", async () => {
    const r = await analyze(bob, { sample_size: 20, num_topics: 2, seed: 99 });
    expect(r.status).toBe(200);
    const own = JSON.parse(r.text) as Run;
    expect((await bob.get(`/api/topic-modeling/runs/${own.run_id}`)).status).toBe(200);
    const latest = (await pool.query("select public.latest_search_topics_run() ->> 'run_id' as id")).rows[0].id;
    expect(latest).toBe(planted.run_id);
    expect(((await (await new Browser().get("/api/search/topics/meta")).json()) as { run_id: string }).run_id).toBe(planted.run_id);
    expect(((await (await new Browser().get("/api/search/topics/trending")).json()) as { run_id: string }).run_id).toBe(planted.run_id);
  });

  it("clicks: per user when signed in, per guest device otherwise; trending counts distinct clickers; my-clicks is the caller's", async () => {
    const topicId = `${planted.run_id}_${planted.topics.length - 1}`;
    const guest = new Browser();
    const device = randomUUID();
    for (let i = 0; i < 3; i++) {
      const res = await guest.post("/api/search/topic-click", { topic_id: topicId }, { "x-device-id": device });
      expect(res.status).toBe(201);
    }
    expect((await new Browser().post("/api/search/topic-click", { topic_id: topicId })).status).toBe(201);
    expect((await alice.post("/api/search/topic-click", { topic_id: topicId, query: "  drones  " })).status).toBe(201);

    const rows = await pool.query("select user_id, guest_key, query from public.search_topic_clicks where run_id = $1 order by id", [planted.run_id]);
    expect(rows.rows).toHaveLength(5);
    expect(rows.rows.slice(0, 3).every((r) => r.user_id === null && r.guest_key === `device:${device}`)).toBe(true);
    expect(rows.rows[3].guest_key).toMatch(/^(guest|addr):/);
    expect(rows.rows[4]).toMatchObject({ user_id: users[0], guest_key: null, query: "drones" });

    const trending = (await (await new Browser().get("/api/search/topics/trending?limit=30")).json()) as {
      topics: { topic_id: string; clicks: number; clickers: number }[];
    };
    expect(trending.topics.find((t) => t.topic_id === topicId)).toMatchObject({ clicks: 5, clickers: 3 });

    const mine = (await (await alice.get("/api/search/topics/my-clicks")).json()) as { clicks: { topic_id: string; query: string; label: string }[] };
    expect(mine.clicks).toEqual([expect.objectContaining({ topic_id: topicId, query: "drones", label: planted.topics.at(-1)?.label })]);
    expect(((await (await bob.get("/api/search/topics/my-clicks")).json()) as { clicks: unknown[] }).clicks).toEqual([]);

    const bad = await guest.post("/api/search/topic-click", { topic_id: "drones" });
    expect(bad.status).toBe(422);
    const unknown = await guest.post("/api/search/topic-click", { topic_id: `${randomUUID()}_1` });
    expect(unknown.status).toBe(404);
    expect((await detail(unknown)).code).toBe("TOPIC_NOT_FOUND");
    expect((await guest.post("/api/search/topic-click", { topic_id: topicId, extra: 1 })).status).toBe(422);
  });
});

describe("the hourly topic-run quota (QUOTA_TOPIC_RUNS_PER_HOUR = 10)", () => {
  it("the 11th well-formed run in an hour is 429 in the reference shape with Retry-After; refused bodies cost nothing", async () => {
    await startInOneWindow(3600, 90);
    const { browser, user } = await signedInBrowser();
    users.push(user.id);
    // A refused body is not counted (lib/api/route.ts: quotas count well-formed requests only).
    expect((await browser.post("/api/topic-modeling/analyze", { sample_size: 1 })).status).toBe(422);
    for (let i = 0; i < 10; i++) {
      const r = await browser.post("/api/topic-modeling/analyze", { sample_size: 20, num_topics: 2, seed: i });
      expect(r.status).toBe(200);
    }
    const res = await browser.post("/api/topic-modeling/analyze", { sample_size: 20, num_topics: 2 });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
    // Another user has an allowance of their own.
    expect((await bob.post("/api/topic-modeling/analyze", { sample_size: 20, num_topics: 2 })).status).toBe(200);
  }, windowTestTimeout(90));
});

function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ł/g, "l")
    .toLowerCase();
}
