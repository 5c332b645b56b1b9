import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool, stackEnv } from "../helpers/stack";
import { FIXTURES } from "../fixtures/extraction/judgments";
import { openBoss } from "@/lib/backend/extraction-jobs/queue";
import { defaultExtractor, startExtractionWorker, type ExtractionWorker, type Extractor } from "@/lib/backend/extraction-jobs/worker";
import type PgBoss from "pg-boss";

/**
 * Extraction jobs at the database and on the real queue (pg-boss in the test stack's Postgres):
 *   - RLS as two users (and anon) on extraction_jobs / extraction_job_documents and their functions;
 *   - idempotency (same key within 24 h → the first job) and the running-jobs limit;
 *   - in-process workers on a queue of this file's own (so the stack's worker keeps out): a job completes, cancel mid-run,
 *     retry re-runs only the failures, a worker killed mid-job is taken over and no document is recorded twice
 *     (attempts per document), a message for a job already running in the worker is refused (never run twice), a job
 *     whose every document fails ends `failed`;
 *   - base-schema jobs: an admin's writes the judgment's base_ columns through the promotion module (and records a
 *     failure on the judgment), a user's keeps its values in the job and leaves the shared judgment row unchanged.
 * Waits poll the database (no timed assertions).
 */
const pool = adminPool();
const alice = randomUUID();
const bob = randomUUID();
const carol = randomUUID(); // an admin
const ALICE = userClaims(alice);
const BOB = userClaims(bob);
const CAROL = { ...userClaims(carol), app_metadata: { role: "admin" } };
const QUEUE = `extraction-test-${randomUUID().slice(0, 8)}`;
const FIELDS = [{ name: "case_number", type: "string", description: "", required: false }];
let docs: string[] = [];
let schemaId = "";
let boss: PgBoss;
const workers: ExtractionWorker[] = [];

const as = <T,>(claims: Record<string, unknown>, fn: (c: pg.PoolClient) => Promise<T>) => asRole(pool, "authenticated", claims, fn);

beforeAll(async () => {
  await pool.query("insert into auth.users (id, email) values ($1, $2), ($3, $4)", [alice, `alice-${alice}@example.org`, bob, `bob-${bob}@example.org`]);
  await pool.query(`insert into auth.users (id, email, raw_app_meta_data) values ($1, $2, '{"role": "admin"}')`, [carol, `carol-${carol}@example.org`]);
  docs = (await pool.query<{ id: string }>("select id from public.judgments order by id limit 40")).rows.map((r) => r.id);
  schemaId = await as(ALICE, async (c) =>
    (await c.query("select id from public.create_extraction_schema('Jobs test', null, $1, '{\"type\":\"object\"}')", [JSON.stringify(FIELDS)])).rows[0].id,
  );
  boss = await openBoss(stackEnv().databaseUrl, { queue: QUEUE });
});

afterAll(async () => {
  for (const w of workers) await w.stop().catch(() => undefined);
  await boss?.stop({ graceful: false }).catch(() => undefined);
  await pool.query("delete from auth.users where id = any($1::uuid[])", [[alice, bob, carol]]);
  await pool.end();
});

type Created = { outcome: string; job?: { job_id: string; status: string; writes_judgments: boolean; progress: { total: number } } };

/** create_extraction_job as Alice; the job is moved to this file's queue before any worker sees it. */
async function createJob(ids: string[], opts: { key?: string; schema?: string | null; claims?: Record<string, unknown> } = {}): Promise<Created> {
  const r: Created = await as(opts.claims ?? ALICE, async (c) =>
    (
      await c.query("select public.create_extraction_job($1, null, $2, null, $3, 'rules', 3, 5000) as r", [
        opts.schema === undefined ? schemaId : opts.schema,
        ids,
        opts.key ?? null,
      ])
    ).rows[0].r,
  );
  if (r.job) await pool.query("update public.extraction_jobs set queue = $2 where id = $1", [r.job.job_id, QUEUE]);
  return r;
}

async function send(jobId: string) {
  await boss.send(QUEUE, { job_id: jobId }, {});
}

async function startWorker(extractor: Extractor, extra: { staleSeconds?: number; heartbeatSeconds?: number } = {}) {
  const w = await startExtractionWorker({ databaseUrl: stackEnv().databaseUrl, queue: QUEUE, extractor, concurrency: 2, pollingIntervalSeconds: 0.5, ...extra });
  // A stopped or killed worker leaves the list (afterAll stops the rest).
  const leave = () => void workers.splice(workers.indexOf(entry) >>> 0, 1);
  const entry: ExtractionWorker = {
    ...w,
    stop: async () => (leave(), w.stop()),
    kill: async () => (leave(), w.kill()),
  };
  workers.push(entry);
  return entry;
}

/** The only live worker on this file's queue, so the message meets this extractor. */
async function soleWorker(extractor: Extractor) {
  for (const w of [...workers]) await w.stop();
  return startWorker(extractor);
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const jobStatus = async (id: string) => (await pool.query<{ status: string }>("select status from public.extraction_jobs where id = $1", [id])).rows[0]?.status;
const docRows = async (id: string) =>
  (await pool.query<{ document_id: string; status: string; attempts: number }>("select document_id, status, attempts from public.extraction_job_documents where job_id = $1 order by position", [id])).rows;
const finished = (id: string) => waitFor(`job ${id} to finish`, async () => {
  const s = await jobStatus(id);
  return s && !["queued", "running"].includes(s) ? s : null;
});

describe("extraction jobs under RLS", () => {
  it("the owner sees and changes the job; another user and anon see and change nothing", async () => {
    const r = await createJob(docs.slice(0, 2), { key: `rls-${randomUUID()}` });
    expect(r.outcome).toBe("created");
    const id = r.job!.job_id;
    await as(ALICE, async (c) => {
      expect((await c.query("select public.get_extraction_job($1) as j", [id])).rows[0].j).toMatchObject({ job_id: id, status: "queued", progress: { total: 2, done: 0 } });
      expect((await c.query("select * from public.list_extraction_results($1)", [id])).rows).toHaveLength(2);
      // Even the owner changes rows only through the functions.
      await expect(c.query("update public.extraction_jobs set status = 'completed' where id = $1", [id])).rejects.toThrow(/permission denied/);
    });
    await as(BOB, async (c) => {
      expect((await c.query("select public.get_extraction_job($1) as j", [id])).rows[0].j).toBeNull();
      expect((await c.query("select public.list_extraction_jobs() as l", [])).rows[0].l).toEqual({ jobs: [], total: 0 });
      expect((await c.query("select * from public.list_extraction_results($1)", [id])).rows).toEqual([]);
      expect((await c.query("select public.get_extraction_job_fields($1) as f", [id])).rows[0].f).toBeNull();
      expect((await c.query("select public.extraction_job_field_counts($1) as f", [id])).rows[0].f).toEqual({ completed: 0, filled: {} });
      expect((await c.query("select public.cancel_extraction_job($1) as r", [id])).rows[0].r).toEqual({ outcome: "not_found" });
      expect((await c.query("select public.retry_extraction_job($1, 3) as r", [id])).rows[0].r).toEqual({ outcome: "not_found" });
      expect((await c.query("select public.delete_extraction_job($1) as r", [id])).rows[0].r).toEqual({ outcome: "not_found" });
      expect((await c.query("select count(*)::int as n from public.extraction_job_documents where job_id = $1", [id])).rows[0].n).toBe(0);
      await expect(c.query("insert into public.extraction_job_documents (job_id, document_id, position) values ($1, $2, 9)", [id, docs[5]])).rejects.toThrow(/permission denied/);
    });
    // Bob cannot run a job over Alice's schema either.
    expect((await createJob(docs.slice(0, 1), { claims: BOB })).outcome).toBe("schema_not_found");
    // One refusal per transaction (a refused statement aborts the transaction it runs in).
    await asRole(pool, "anon", null, async (c) => {
      await expect(c.query("select public.get_extraction_job($1)", [id])).rejects.toThrow(/permission denied/);
    });
    await asRole(pool, "anon", null, async (c) => {
      await expect(c.query("select * from public.extraction_jobs")).rejects.toThrow(/permission denied/);
    });
    expect(await jobStatus(id)).toBe("queued");
    await as(ALICE, async (c) => expect((await c.query("select public.cancel_extraction_job($1) as r", [id])).rows[0].r.outcome).toBe("ok"));
    expect(await jobStatus(id)).toBe("cancelled");
  });

  it("the same idempotency key answers the first job; unknown documents and the running limit are refused", async () => {
    const key = `idem-${randomUUID()}`;
    const a = await createJob(docs.slice(0, 3), { key });
    const b = await createJob(docs.slice(5, 9), { key });
    expect(a.outcome).toBe("created");
    expect(b).toMatchObject({ outcome: "existing", job: { job_id: a.job!.job_id, progress: { total: 3 } } });
    expect((await createJob([randomUUID()])).outcome).toBe("documents_not_found");
    // Alice has one queued job now; two more fill the limit of 3, the fourth is refused.
    const more = [await createJob(docs.slice(0, 1)), await createJob(docs.slice(1, 2))];
    expect(more.map((m) => m.outcome)).toEqual(["created", "created"]);
    expect((await createJob(docs.slice(2, 3))).outcome).toBe("limit");
    for (const j of [a, ...more]) await as(ALICE, (c) => c.query("select public.cancel_extraction_job($1)", [j.job!.job_id]));
    expect((await createJob(docs.slice(2, 3), { key: `after-${randomUUID()}` })).outcome).toBe("created");
    await pool.query("update public.extraction_jobs set status = 'cancelled' where user_id = $1 and status = 'queued'", [alice]);
  });
});

describe("extraction jobs on the queue", () => {
  it("a worker runs a job to completed, each document once", async () => {
    const calls: string[] = [];
    const w = await startWorker(async (input) => {
      calls.push(input.documentId);
      return defaultExtractor(input);
    });
    const r = await createJob(docs.slice(0, 12));
    await send(r.job!.job_id);
    expect(await finished(r.job!.job_id)).toBe("completed");
    const rows = await docRows(r.job!.job_id);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ["completed", 1]));
    expect(calls.sort()).toEqual(docs.slice(0, 12).sort());
    const values = await pool.query("select values from public.extraction_job_documents where job_id = $1 and values->>'case_number' is not null", [r.job!.job_id]);
    expect(values.rowCount).toBeGreaterThan(0); // rules-v1 reads the case number of demo judgments
    await w.stop();
  });

  it("cancel mid-run: documents under way finish, the rest are skipped", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const w = await startWorker(async (input) => {
      started += 1;
      if (started > 2) await gate;
      return defaultExtractor(input);
    });
    const r = await createJob(docs.slice(0, 20));
    const id = r.job!.job_id;
    await send(id);
    await waitFor("two documents done", async () => (await docRows(id)).filter((d) => d.status === "completed").length >= 2);
    await as(ALICE, async (c) => expect((await c.query("select public.cancel_extraction_job($1) as r", [id])).rows[0].r).toMatchObject({ outcome: "ok", job: { status: "running", cancel_requested: true } }));
    release();
    expect(await finished(id)).toBe("cancelled");
    const rows = await docRows(id);
    const by = (s: string) => rows.filter((d) => d.status === s).length;
    expect(by("pending")).toBe(0);
    expect(by("completed")).toBeGreaterThanOrEqual(2);
    expect(by("skipped")).toBeGreaterThan(0);
    expect(by("completed") + by("skipped")).toBe(20);
    await w.stop();
  });

  it("retry re-runs only the failed documents", async () => {
    const failing = new Set(docs.slice(0, 10).filter((_, i) => i % 3 === 0));
    let failNow = true;
    const calls: string[] = [];
    const w = await startWorker(async (input) => {
      calls.push(input.documentId);
      if (failNow && failing.has(input.documentId)) return { status: "failed", error: "mock failure", model: "mock" };
      return defaultExtractor(input);
    });
    const r = await createJob(docs.slice(0, 10));
    const id = r.job!.job_id;
    await send(id);
    expect(await finished(id)).toBe("completed_with_errors");
    expect((await docRows(id)).filter((d) => d.status === "failed").map((d) => d.document_id).sort()).toEqual([...failing].sort());

    failNow = false;
    calls.length = 0;
    const retry = await as(ALICE, async (c) => (await c.query("select public.retry_extraction_job($1, 3) as r", [id])).rows[0].r);
    expect(retry).toMatchObject({ outcome: "ok", job: { status: "queued" } });
    await send(id);
    expect(await finished(id)).toBe("completed");
    expect(calls.sort()).toEqual([...failing].sort());
    for (const d of await docRows(id)) expect([d.document_id, d.status, d.attempts]).toEqual([d.document_id, "completed", failing.has(d.document_id) ? 2 : 1]);
    // Nothing failed any more: a second retry is refused.
    expect((await as(ALICE, async (c) => (await c.query("select public.retry_extraction_job($1, 3) as r", [id])).rows[0].r)).outcome).toBe("nothing_failed");
    await w.stop();
  });

  it("a worker killed mid-job: another takes the job over and no document is recorded twice", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const callsA: string[] = [];
    const a = await startWorker(async (input) => {
      callsA.push(input.documentId);
      if (callsA.length > 4) await gate; // stuck, as a process that is about to die
      return defaultExtractor(input);
    }, { heartbeatSeconds: 0.3, staleSeconds: 2 });
    const r = await createJob(docs.slice(0, 16));
    const id = r.job!.job_id;
    await send(id);
    await waitFor("four documents done by the first worker", async () => (await docRows(id)).filter((d) => d.status === "completed").length >= 4);
    const doneByA = (await docRows(id)).filter((d) => d.status === "completed").map((d) => d.document_id);
    await a.kill();
    expect(await jobStatus(id)).toBe("running");

    const callsB: string[] = [];
    await startWorker(async (input) => {
      callsB.push(input.documentId);
      return defaultExtractor(input);
    }, { heartbeatSeconds: 0.3, staleSeconds: 2 });
    expect(await finished(id)).toBe("completed");
    release(); // the dead worker's documents under way come back and must write nothing
    await new Promise((res) => setTimeout(res, 300));
    const rows = await docRows(id);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ["completed", 1]));
    expect(callsB.filter((d) => doneByA.includes(d))).toEqual([]);
    expect(new Set([...doneByA, ...callsB]).size).toBe(16);
    const owner = await pool.query<{ worker_id: string }>("select worker_id from public.extraction_jobs where id = $1", [id]);
    expect(owner.rows[0].worker_id).not.toBe(a.workerId);
  });

  it("a repeated message for a job already running in the worker is refused: no document runs twice", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: string[] = [];
    const w = await soleWorker(async (input) => {
      calls.push(input.documentId);
      if (calls.length > 2) await gate;
      return defaultExtractor(input);
    });
    const r = await createJob(docs.slice(0, 8));
    const id = r.job!.job_id;
    await send(id);
    await waitFor("two documents done", async () => (await docRows(id)).filter((d) => d.status === "completed").length >= 2);
    // As pg-boss redelivering the message (after its expiry, or a retry) while the first run is still under way.
    const again = w.handle(id);
    release();
    expect(await again).toBe(false);
    expect(await finished(id)).toBe("completed");
    expect(calls.sort()).toEqual(docs.slice(0, 8).sort());
    const rows = await docRows(id);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ["completed", 1]));
    // A late message for the finished job takes nothing either.
    expect(await w.handle(id)).toBe(false);
    expect(calls).toHaveLength(8);
    await w.stop();
  });

  it("a job whose every document fails ends failed, with the reason per document and on the job", async () => {
    const w = await soleWorker(async () => ({ status: "failed", error: "mock failure", model: "mock" }));
    const r = await createJob(docs.slice(0, 4));
    const id = r.job!.job_id;
    await send(id);
    expect(await finished(id)).toBe("failed");
    const rows = await docRows(id);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ["failed", 1]));
    const job = await as(ALICE, async (c) => (await c.query("select public.get_extraction_job($1) as j", [id])).rows[0].j);
    expect(job).toMatchObject({ status: "failed", error: "every document failed", progress: { total: 4, done: 4, failed: 4 } });
    expect(job.finished_at).toBeTruthy();
    const errors = await as(ALICE, async (c) => (await c.query("select error from public.list_extraction_results($1)", [id])).rows);
    expect(errors).toEqual(rows.map(() => ({ error: "mock failure" })));
    await w.stop();
  });
});

describe("base-schema jobs and the shared judgments rows", () => {
  const uk = FIXTURES.find((f) => f.truth.neutral_citation)!;
  let baseColumns: string[] = [];
  beforeAll(async () => {
    baseColumns = (
      await pool.query<{ c: string }>(
        "select column_name as c from information_schema.columns where table_schema = 'public' and table_name = 'judgments' and column_name like 'base\\_%' order by 1",
      )
    ).rows.map((r) => r.c);
    expect(baseColumns.length).toBeGreaterThan(50);
  });

  /** A judgment of our own whose base_ columns already hold a model's values (the shared data a user must not touch). */
  async function extractedJudgment(): Promise<string> {
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.judgments (full_text, jurisdiction, case_number) values ($1, 'UK', 'fixture') returning id`,
      [uk.text],
    );
    await pool.query(
      `update public.judgments set base_extraction_status = 'completed', base_extraction_model = 'model-x', base_extracted_at = now() - interval '1 day',
         base_neutral_citation_number = 'PRESET', base_raw_extraction = '{"neutral_citation_number": "PRESET"}', base_schema_key = 'universal_legal_document_base_schema',
         base_schema_version = 'v1' where id = $1`,
      [rows[0].id],
    );
    return rows[0].id;
  }
  const snapshot = async (id: string) => {
    const row = (await pool.query<{ j: Record<string, unknown> }>("select to_jsonb(j) as j from public.judgments j where id = $1", [id])).rows[0].j;
    return Object.fromEntries([...baseColumns, "updated_at"].map((c) => [c, row[c]]));
  };

  it("a user's base job keeps its values in the job and leaves the judgment row unchanged (the worker re-checks the owner)", async () => {
    const jid = await extractedJudgment();
    try {
      const before = await snapshot(jid);
      await soleWorker(defaultExtractor);
      const r = await createJob([jid], { schema: null });
      expect(r).toMatchObject({ outcome: "created", job: { writes_judgments: false, schema: { id: "base", key: "base" } } });
      await send(r.job!.job_id);
      expect(await finished(r.job!.job_id)).toBe("completed");
      const results = await as(ALICE, async (c) => (await c.query("select status, values, model from public.list_extraction_results($1)", [r.job!.job_id])).rows);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ status: "completed", model: "rules-v1", values: { neutral_citation_number: uk.truth.neutral_citation } });
      expect(await snapshot(jid)).toEqual(before);

      // Even a job marked as writing (which only the database's functions do, for admins) writes nothing for a non-admin.
      const forged = await createJob([jid], { schema: null });
      await pool.query("update public.extraction_jobs set writes_judgments = true where id = $1", [forged.job!.job_id]);
      await send(forged.job!.job_id);
      expect(await finished(forged.job!.job_id)).toBe("completed");
      expect(await snapshot(jid)).toEqual(before);
      // And Alice cannot set the flag herself.
      await as(ALICE, async (c) => {
        await expect(c.query("update public.extraction_jobs set writes_judgments = true where id = $1", [forged.job!.job_id])).rejects.toThrow(/permission denied/);
      });
    } finally {
      await pool.query("delete from public.judgments where id = $1", [jid]);
    }
  });

  it("an admin's base job writes base_raw_extraction and the typed base_ columns, and marks the judgment completed", async () => {
    const jid = await extractedJudgment();
    try {
      await soleWorker(defaultExtractor);
      const r = await createJob([jid], { schema: null, claims: CAROL });
      expect(r).toMatchObject({ outcome: "created", job: { writes_judgments: true } });
      await send(r.job!.job_id);
      expect(await finished(r.job!.job_id)).toBe("completed");
      const j = (
        await pool.query(
          `select base_extraction_status, base_extraction_model, base_extracted_at > now() - interval '1 hour' as fresh, base_schema_key, base_schema_version,
                  base_neutral_citation_number, base_raw_extraction->>'neutral_citation_number' as raw_citation, base_appeal_outcome
             from public.judgments where id = $1`,
          [jid],
        )
      ).rows[0];
      expect(j).toMatchObject({
        base_extraction_status: "completed",
        base_extraction_model: "rules-v1",
        fresh: true,
        base_schema_key: "universal_legal_document_base_schema",
        base_schema_version: "v1",
        base_neutral_citation_number: uk.truth.neutral_citation,
        raw_citation: uk.truth.neutral_citation,
      });
      expect(Array.isArray(j.base_appeal_outcome) && j.base_appeal_outcome[0]).toMatch(/^outcome_/);
    } finally {
      await pool.query("delete from public.judgments where id = $1", [jid]);
    }
  });

  it("an admin's base job that fails marks the judgment failed with the reason and keeps its typed values", async () => {
    const jid = await extractedJudgment();
    try {
      await soleWorker(async () => ({ status: "failed", error: "mock base failure", model: "mock" }));
      const r = await createJob([jid], { schema: null, claims: CAROL });
      await send(r.job!.job_id);
      expect(await finished(r.job!.job_id)).toBe("failed");
      const j = (
        await pool.query(
          "select base_extraction_status, base_extraction_error, base_extraction_model, base_neutral_citation_number, base_raw_extraction from public.judgments where id = $1",
          [jid],
        )
      ).rows[0];
      expect(j).toEqual({
        base_extraction_status: "failed",
        base_extraction_error: "mock base failure",
        base_extraction_model: "mock",
        base_neutral_citation_number: "PRESET",
        base_raw_extraction: { neutral_citation_number: "PRESET" },
      });
    } finally {
      await pool.query("delete from public.judgments where id = $1", [jid]);
    }
  });
});
