/**
 * The worker's scheduled-job machinery (lib/backend/jobs/scheduled.ts) on the test database, under queue names of the
 * caller's own (a random prefix), so the real schedules and any worker of the stack keep out. close() stops working,
 * removes the schedules and the queues.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type pg from "pg";
import { openBoss } from "@/lib/backend/extraction-jobs/queue";
import { startScheduledJobs, type ScheduledJob, type ScheduledJobsHandle } from "@/lib/backend/jobs/scheduled";
import { stackEnv } from "./stack";

export interface TestJobs {
  boss: PgBoss;
  handle: ScheduledJobsHandle;
  /** The queue name of a job of the list. */
  queue(name: string): string;
  close(): Promise<void>;
}

export async function testJobs(jobs: ScheduledJob[], opts: { prefix?: string; boss?: PgBoss; expireSeconds?: number } = {}): Promise<TestJobs> {
  const prefix = opts.prefix ?? `t${randomUUID().slice(0, 8)}-`;
  const boss = opts.boss ?? (await openBoss(stackEnv().databaseUrl, { supervise: true, maintenanceIntervalSeconds: 1 }));
  const handle = await startScheduledJobs({ boss, jobs, work: "all", expireSeconds: opts.expireSeconds ?? 60, prefix, pollingIntervalSeconds: 0.5 });
  return {
    boss,
    handle,
    queue: (name) => prefix + name,
    async close() {
      await handle.stop();
      for (const q of handle.registered) {
        await boss.unschedule(q).catch(() => undefined);
        await boss.deleteQueue(q).catch(() => undefined);
      }
      if (!opts.boss) await boss.stop({ graceful: false }).catch(() => undefined);
    },
  };
}

/** Every pg-boss job of a queue (live and archived), oldest first. */
export async function bossJobs(pool: pg.Pool, queue: string) {
  const { rows } = await pool.query<{ id: string; state: string; retry_count: number; singleton_key: string | null; created_on: Date; data: unknown }>(
    `select id::text, state::text, retry_count, singleton_key, created_on, data from pgboss.job where name = $1
     union all
     select id::text, state::text, retry_count, singleton_key, created_on, data from pgboss.archive where name = $1
     order by created_on`,
    [queue],
  );
  return rows;
}

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
