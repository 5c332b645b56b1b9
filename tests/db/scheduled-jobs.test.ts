/**
 * pg-boss runs every background job (P-80): the worker process (server/worker/worker.ts, supervised as the launcher
 * runs it: server/supervise.ts with the worker spec of server/launcher/supervise-stack.ts) registers one pg-boss cron schedule
 * per job and works them.
 *
 *   1. The schedules are in pg-boss's own table (pgboss.schedule), each with its cron, and in the health report's
 *      source (scheduled_jobs_health) with their last run.
 *   2. A worker killed with SIGKILL in the middle of a scheduled run loses it: pg-boss keeps the job, expires it and
 *      the replacement worker started by the supervisor runs it to completion. "Mid-run" is made certain, not timed:
 *      the test holds the advisory lock refresh_dashboard_stats() takes, so the run is stuck inside the job when the
 *      worker is killed.
 *   3. Two workers watching the clock fire a digest slot once, and never run two digests at once: pg-boss's per-slot
 *      singleton and the queue's `singleton` policy, not an advisory lock.
 * The workers here work only jobs harmless to the other suites (partitions, the dashboard row, a test queue); every
 * schedule they register is removed, with its queued jobs, at the end.
 */
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { alertDigestJobs } from "@/lib/backend/alerts/run";
import { defaultChecks } from "@/lib/backend/health/checks";
import { resetConfigForTests } from "@/lib/config";
import { supervise, type Supervised } from "../../server/supervise";
import { workerChild } from "../../server/launcher/supervise-stack";
import { adminPool, stackEnv } from "../helpers/stack";
import { serviceClient } from "../helpers/supabase";
import { bossJobs, testJobs, waitFor } from "../helpers/scheduled-jobs";

const pool = adminPool();
const env = stackEnv();
const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every job of the plan with its cron (lib/backend/jobs/plan.ts), SEARCH_SYNC_INTERVAL_HOURS at its default 6. */
const PLAN: Record<string, { cron: string; timezone: string }> = {
  search_sync_incremental: { cron: "*/10 * * * *", timezone: "UTC" },
  search_sync_full: { cron: "0 */6 * * *", timezone: "UTC" },
  create_next_app_events_partition: { cron: "15 0 * * *", timezone: "UTC" },
  refresh_dashboard_stats: { cron: "30 0 * * *", timezone: "UTC" },
  rebuild_topics_index: { cron: "* * * * *", timezone: "UTC" },
  fill_reasoning_phrase_counts: { cron: "*/5 * * * *", timezone: "UTC" },
  alert_digest_daily: { cron: "0 7 * * *", timezone: tz },
  alert_digest_weekly: { cron: "0 8 * * 1", timezone: tz },
};
const NAMES = Object.keys(PLAN);

let worker: Supervised<{ workerId: string }> | null = null;
const log: string[] = [];

function workerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: env.databaseUrl,
    SUPABASE_URL: env.supabaseUrl,
    SUPABASE_SERVICE_ROLE_KEY: env.serviceRoleKey,
    // An address nothing listens on: the digest schedules are registered (they need an SMTP server), never worked here.
    SMTP_URL: "smtp://127.0.0.1:9",
    SEARCH_SYNC_INTERVAL_HOURS: "6",
    // The extraction side works a queue of its own, so other suites' extraction jobs stay with their workers.
    EXTRACTION_WORKER_QUEUE: `scheduled-${randomUUID().slice(0, 8)}`,
    ...extra,
  };
}

afterEach(async () => {
  await worker?.stop(10_000);
  worker = null;
});

afterAll(async () => {
  // The real schedules registered here would fire under any pg-boss clock on this database: remove them and what
  // they queued (a worker of a later run registers them again).
  await pool.query("delete from pgboss.schedule where name = any($1)", [NAMES]);
  await pool.query("delete from pgboss.job where name = any($1) and state in ('created', 'retry')", [NAMES]);
  await pool.end();
});

describe("pg-boss runs every scheduled job (the worker process)", () => {
  it("lists every job of the plan in pgboss.schedule with its cron, and in the health source with its last run", { timeout: 120_000 }, async () => {
    worker = supervise(workerChild(workerEnv({ SCHEDULED_JOBS: "create_next_app_events_partition" }), "quiet"), {
      backoff: { initialMs: 200, maxMs: 1000, stableMs: 60_000 },
      log: (l) => log.push(l),
    });
    await worker.started;
    const { rows } = await pool.query<{ name: string; cron: string; timezone: string }>(
      "select name, cron, timezone from pgboss.schedule where name = any($1) order by name",
      [NAMES],
    );
    expect(Object.fromEntries(rows.map((r) => [r.name, { cron: r.cron, timezone: r.timezone }]))).toEqual(PLAN);
    // Each schedule fires into a queue of its own whose policy keeps one run active at a time.
    const queues = await pool.query<{ name: string; policy: string }>("select name, policy from pgboss.queue where name = any($1)", [NAMES]);
    expect(queues.rows.map((q) => q.policy)).toEqual(NAMES.map(() => "singleton"));

    // The health report's source: every schedule, and the partition job's run at start finished.
    const health = await waitFor("the partition job's start run in the health source", async () => {
      const { data, error } = await serviceClient().rpc("scheduled_jobs_health");
      if (error) throw new Error(error.message);
      const h = data as { pgboss: boolean; schedules: { name: string; cron: string; last_state: string | null; waiting: number }[] };
      const partition = h.schedules.find((s) => s.name === "create_next_app_events_partition");
      return partition?.last_state === "completed" && h;
    });
    expect(health.pgboss).toBe(true);
    const listed = Object.fromEntries(health.schedules.filter((s) => NAMES.includes(s.name)).map((s) => [s.name, s.cron]));
    expect(listed).toEqual(Object.fromEntries(NAMES.map((n) => [n, PLAN[n].cron])));

    // The health report's task_queue entry (the app's own check, through the gateway as the app calls it).
    const saved = { url: process.env.SUPABASE_URL, key: process.env.SUPABASE_SERVICE_ROLE_KEY, anon: process.env.SUPABASE_ANON_KEY };
    Object.assign(process.env, { SUPABASE_URL: env.supabaseUrl, SUPABASE_SERVICE_ROLE_KEY: env.serviceRoleKey, SUPABASE_ANON_KEY: env.anonKey });
    resetConfigForTests();
    try {
      const report = await defaultChecks().task_queue();
      const partition = report.schedules?.find((s) => s.name === "create_next_app_events_partition");
      expect(partition).toMatchObject({ cron: "15 0 * * *", timezone: "UTC", last_state: "completed" });
      expect(report.schedules?.filter((s) => NAMES.includes(s.name)).map((s) => s.name).sort()).toEqual([...NAMES].sort());
    } finally {
      for (const [k, v] of [["SUPABASE_URL", saved.url], ["SUPABASE_SERVICE_ROLE_KEY", saved.key], ["SUPABASE_ANON_KEY", saved.anon]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetConfigForTests();
    }
  });

  it("a worker killed mid-run loses no scheduled run: pg-boss keeps the job and the replacement runs it", { timeout: 180_000 }, async () => {
    const boss = new PgBoss({ connectionString: env.databaseUrl, schema: "pgboss", supervise: false, schedule: false, max: 2 });
    boss.on("error", () => undefined);
    await boss.start();
    const locker = await pool.connect();
    let locked = false;
    try {
      // refresh_dashboard_stats() serialises refreshes on this advisory lock: held here, a run waits inside the job.
      await locker.query("select pg_advisory_lock(hashtext('refresh_dashboard_stats'))");
      locked = true;
      worker = supervise(
        workerChild(
          workerEnv({
            SCHEDULED_JOBS: "refresh_dashboard_stats",
            SCHEDULED_JOB_EXPIRE_SECONDS: "3",
            SCHEDULED_JOB_RETRY_SECONDS: "0",
            PGBOSS_MAINTENANCE_SECONDS: "1",
          }),
          "quiet",
        ),
        { backoff: { initialMs: 200, maxMs: 1000, stableMs: 60_000 }, log: (l) => log.push(l) },
      );
      await worker.started;
      // A slot of the schedule, sent as pg-boss's clock sends it (the worker may have queued its start run too).
      await boss.send("refresh_dashboard_stats", {});
      const active = await waitFor("a run stuck inside the dashboard job", async () => {
        const jobs = (await bossJobs(pool, "refresh_dashboard_stats")).filter((j) => j.state === "active");
        const waiting = await pool.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where wait_event = 'advisory' and query ilike '%refresh_dashboard_stats%' and pid <> pg_backend_pid()",
        );
        return jobs.length === 1 && waiting.rows[0].n >= 1 && jobs[0];
      });

      const firstPid = worker.child?.pid as number;
      process.kill(firstPid, "SIGKILL");
      await waitFor("the supervisor to start a new worker", async () => worker?.restarts === 1 && worker.child && worker.child.pid !== firstPid);
      await locker.query("select pg_advisory_unlock(hashtext('refresh_dashboard_stats'))");
      locked = false;

      // The killed run's job: expired by pg-boss and run again, to completion, by the replacement.
      const done = await waitFor(
        "the replacement to complete the killed run's job",
        async () => (await bossJobs(pool, "refresh_dashboard_stats")).find((j) => j.id === active.id && j.state === "completed"),
        120_000,
      );
      expect(done.retry_count).toBeGreaterThanOrEqual(1);
      // Nothing of the queue is left behind: every job sent was run.
      await waitFor("the queue to drain", async () => (await bossJobs(pool, "refresh_dashboard_stats")).every((j) => j.state === "completed"), 60_000);
    } finally {
      if (locked) await locker.query("select pg_advisory_unlock(hashtext('refresh_dashboard_stats'))").catch(() => undefined);
      locker.release();
      await boss.stop({ graceful: false }).catch(() => undefined);
    }
  });

  it("two workers fire each digest slot once and never run two digests at once", { timeout: 240_000 }, async () => {
    // Two pg-boss instances watching the clock, as two worker processes would (their own connection pools). The
    // digest job is the real daily one (its queue settings) with a cron of every minute and a run that counts.
    const clocks = [0, 1].map(() => new PgBoss({ connectionString: env.databaseUrl, schema: "pgboss", supervise: false, schedule: true, cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1, max: 3 }));
    for (const b of clocks) b.on("error", () => undefined);
    await Promise.all(clocks.map((b) => b.start()));
    const prefix = `t${randomUUID().slice(0, 8)}-`;
    const [daily] = alertDigestJobs({ smtpUrl: "smtp://127.0.0.1:9" });
    let running = 0;
    let most = 0;
    const runs: string[] = [];
    const counted = (who: string) => ({
      ...daily,
      cron: "* * * * *",
      run: async () => {
        running += 1;
        most = Math.max(most, running);
        runs.push(who);
        // While the first run is active, a second digest job waits in the queue (a catch-up, say); both workers poll
        // it every 0.5 s, and the queue's policy must hold it until this run ends.
        if (runs.length === 1) await clocks[1].send(queue, { extra: true });
        await new Promise((r) => setTimeout(r, 2000));
        running -= 1;
      },
    });
    const queue = prefix + daily.name;
    const workers = [await testJobs([counted("a")], { prefix, boss: clocks[0] }), await testJobs([counted("b")], { prefix, boss: clocks[1] })];
    try {
      const slotJobs = async () => (await bossJobs(pool, queue)).filter((j) => !(j.data as { extra?: boolean } | null)?.extra);
      // Two minute slots, each fired by whichever clock came first, and the extra job.
      await waitFor(
        "two slots of the schedule and the extra job to run",
        async () => (await bossJobs(pool, queue)).filter((j) => j.state === "completed").length >= 3,
        200_000,
      );
      for (const w of workers) await w.handle.stop();
      await waitFor("the runs under way to end", async () => running === 0);
      const all = await bossJobs(pool, queue);
      const slots = await slotJobs();
      const minutes = slots.map((j) => Math.floor(j.created_on.getTime() / 60_000));
      expect(slots.length).toBeGreaterThanOrEqual(2);
      expect(new Set(minutes).size).toBe(minutes.length); // one job per slot, not one per clock
      expect(all.length - slots.length).toBe(1);
      // Every job that started ran once, and never two at once (the extra one waited for the first).
      expect(runs.length).toBe(all.filter((j) => j.state !== "created").length);
      expect(most).toBe(1);
    } finally {
      for (const w of workers) await w.close();
      await Promise.all(clocks.map((b) => b.stop({ graceful: false }).catch(() => undefined)));
    }
  });
});
