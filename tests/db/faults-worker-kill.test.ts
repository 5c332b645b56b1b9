/**
 * A supervised extraction worker killed with SIGKILL in the middle of a job (fault test). The launcher's supervisor
 * (server/supervise.ts, the worker spec of server/launcher/supervise-stack.ts) starts a new worker process; its reaper sees
 * the job's heartbeat go stale (EXTRACTION_STALE_SECONDS, 2 s here), takes the job over and finishes it, and every
 * document's result is recorded exactly once (attempts = 1, status completed).
 *
 * "Mid-job" is made certain, not timed: this test holds a row lock on one document's result row, so the first worker
 * has recorded some documents and is stuck recording that one when it is killed. The lock is released only after the
 * replacement owns the job; the dead worker's statement still waiting in Postgres then lands first or not at all, and
 * the replacement's write of that document finds it no longer pending: one result either way.
 * The worker runs on a queue of this file's own, so the test stack's worker keeps out.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool, stackEnv } from "../helpers/stack";
import { openBoss } from "@/lib/backend/extraction-jobs/queue";
import { supervise, type Supervised } from "../../server/supervise";
import { workerChild } from "../../server/launcher/supervise-stack";
import type PgBoss from "pg-boss";

const pool = adminPool();
const user = randomUUID();
const QUEUE = `extraction-kill-${randomUUID().slice(0, 8)}`;
const FIELDS = [{ name: "case_number", type: "string", description: "", required: false }];
let boss: PgBoss;
let worker: Supervised<{ workerId: string }> | null = null;
let locker: pg.PoolClient | null = null;
const log: string[] = [];

beforeAll(async () => {
  await pool.query("insert into auth.users (id, email) values ($1, $2)", [user, `kill-${user}@example.org`]);
  boss = await openBoss(stackEnv().databaseUrl, { queue: QUEUE });
});

afterAll(async () => {
  await locker?.query("rollback").catch(() => undefined);
  locker?.release();
  await worker?.stop(5000);
  await boss?.stop({ graceful: false }).catch(() => undefined);
  await pool.query("delete from auth.users where id = $1", [user]);
  await pool.end();
});

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}; supervisor log: ${log.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const job = async (id: string) =>
  (await pool.query<{ status: string; worker_id: string | null }>("select status, worker_id from public.extraction_jobs where id = $1", [id])).rows[0];
const docRows = async (id: string) =>
  (await pool.query<{ document_id: string; status: string; attempts: number }>(
    "select document_id, status, attempts from public.extraction_job_documents where job_id = $1 order by position",
    [id],
  )).rows;

describe("a supervised worker killed with SIGKILL mid-job (fault test)", () => {
  it("is replaced; the replacement finishes the job and each document's result is recorded exactly once", { timeout: 180_000 }, async () => {
    const docs = (await pool.query<{ id: string }>("select id from public.judgments order by id limit 40")).rows.map((r) => r.id);
    const claims = userClaims(user);
    const schemaId = await asRole(pool, "authenticated", claims, async (c) =>
      (await c.query("select id from public.create_extraction_schema('Kill test', null, $1, '{\"type\":\"object\"}')", [JSON.stringify(FIELDS)])).rows[0].id as string,
    );
    const created = await asRole(pool, "authenticated", claims, async (c) =>
      (await c.query("select public.create_extraction_job($1, null, $2, null, null, 'rules', 3, 5000) as r", [schemaId, docs])).rows[0].r as { job: { job_id: string } },
    );
    const id = created.job.job_id;
    await pool.query("update public.extraction_jobs set queue = $2 where id = $1", [id, QUEUE]);

    // The 11th document's result row is locked: the worker records others, then waits on this one.
    const stuck = docs[10];
    locker = await pool.connect();
    await locker.query("begin");
    await locker.query("select 1 from public.extraction_job_documents where job_id = $1 and document_id = $2 for update", [id, stuck]);

    worker = supervise(
      workerChild(
        {
          ...process.env,
          DATABASE_URL: stackEnv().databaseUrl,
          EXTRACTION_WORKER_QUEUE: QUEUE,
          SCHEDULED_JOBS: "none",
          EXTRACTION_STALE_SECONDS: "2",
          EXTRACTION_HEARTBEAT_SECONDS: "1",
          EXTRACTION_WORKER_CONCURRENCY: "2",
        },
        "quiet",
      ),
      { backoff: { initialMs: 200, maxMs: 1000, stableMs: 60_000 }, log: (l) => log.push(l) },
    );
    const first = await worker.started;
    await boss.send(QUEUE, { job_id: id });

    await waitFor("the first worker to record documents and wait on the locked one", async () => {
      const done = (await docRows(id)).filter((d) => d.status === "completed").length;
      const waiting = await pool.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%update public.extraction_job_documents%'",
      );
      return done >= 5 && waiting.rows[0].n >= 1;
    });
    expect(await job(id)).toEqual({ status: "running", worker_id: first.workerId });
    const pending = (await docRows(id)).filter((d) => d.status === "pending").length;
    expect(pending).toBeGreaterThan(0);

    const firstPid = worker.child?.pid as number;
    process.kill(firstPid, "SIGKILL");
    await waitFor("the supervisor to start a new worker", async () => worker?.restarts === 1 && worker.child && worker.child.pid !== firstPid);
    const replacement = await waitFor("the replacement to take the job over", async () => {
      const j = await job(id);
      return j.worker_id && j.worker_id !== first.workerId ? j.worker_id : null;
    });
    await locker.query("rollback");
    locker.release();
    locker = null;

    await waitFor("the job to finish", async () => ((await job(id)).status === "completed" ? true : null));
    const rows = await docRows(id);
    expect(rows).toHaveLength(40);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ["completed", 1]));
    expect((await job(id)).worker_id).toBe(replacement);
    expect(log.some((l) => l.startsWith("worker exited (signal SIGKILL)"))).toBe(true);
  });
});
