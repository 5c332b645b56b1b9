/**
 * Product events never vanish when a monthly partition is missing. The
 * DEFAULT partition takes the row, the health report says so (degraded), and the partition job moves the row into
 * the month's partition when it creates it. Real Postgres through the real gateway (service role).
 */
import { afterAll, describe, expect, it } from "vitest";
import { appEventsPartitionsReport } from "@/lib/backend/health/checks";
import type { ScheduledJob } from "@/lib/backend/jobs/scheduled";
import { bossJobs, testJobs, waitFor } from "../helpers/scheduled-jobs";
import { adminPool } from "../helpers/stack";
import { serviceClient } from "../helpers/supabase";

const pool = adminPool();

afterAll(async () => {
  // Whatever happened above, leave the months ahead in place for the other suites.
  await serviceClient().rpc("create_next_app_events_partition");
  await pool.end();
});

const monthName = (d: Date) => `app_events_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
const now = new Date();
const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const mid = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12));

async function partitionOf(name: string): Promise<string[]> {
  const { rows } = await pool.query<{ part: string }>(
    "select tableoid::regclass::text as part from public.app_events where name = 'judgment_exported' and properties ->> 'marker' = $1",
    [name],
  );
  return rows.map((r) => r.part);
}

describe("app_events partitions (M7)", () => {
  it("keeps at least two months ahead, and has a default partition", async () => {
    const { data, error } = await serviceClient().rpc("app_events_partition_health");
    expect(error).toBeNull();
    expect(data.current_month_ready).toBe(true);
    expect(data.months_ahead).toBeGreaterThanOrEqual(2);
    const { rows } = await pool.query(
      "select 1 from pg_partitioned_table p where p.partrelid = 'public.app_events'::regclass and p.partdefid <> 0",
    );
    expect(rows).toHaveLength(1);
    const { rows: grants } = await pool.query<{ can: boolean }>(
      `select bool_or(has_table_privilege(r, 'public.app_events_default', 'select') or has_table_privilege(r, 'public.app_events_default', 'insert')) as can
       from unnest(array['anon', 'authenticated']) r`,
    );
    expect(grants[0].can).toBe(false);
  });

  it("next month's partition missing: an event dated then is stored, health says degraded, the job moves it into the month", async () => {
    const marker = `m7-${Date.now()}`;
    await pool.query(`drop table if exists public.${monthName(next)}`);

    // Before the fix this insert failed with 23514 (no partition of relation "app_events" found for row).
    await pool.query(
      "insert into public.app_events (name, created_at, properties) values ('judgment_exported', $1, jsonb_build_object('marker', $2::text))",
      [mid, marker],
    );
    expect(await partitionOf(marker)).toEqual(["app_events_default"]);

    const report = await appEventsPartitionsReport(serviceClient());
    expect(report.status).toBe("degraded");
    expect(report.app_events).toMatchObject({ current_month_ready: true, next_month_ready: false, months_ahead: 0 });
    expect(report.app_events?.default_partition_rows).toBeGreaterThanOrEqual(1);

    const { data, error } = await serviceClient().rpc("create_next_app_events_partition");
    expect(error).toBeNull();
    expect(data).toBe(monthName(next));
    expect(await partitionOf(marker)).toEqual([monthName(next)]);

    const healed = await appEventsPartitionsReport(serviceClient());
    expect(healed.status).toBe("ok");
    expect(healed.app_events?.months_ahead).toBeGreaterThanOrEqual(3);
  });

  it("an event of a past month with no partition is kept too, and gets its partition from the job", async () => {
    const marker = `m7-past-${Date.now()}`;
    const past = new Date(Date.UTC(2020, 0, 10));
    await pool.query(`drop table if exists public.${monthName(past)}`);
    await pool.query(
      "insert into public.app_events (name, created_at, properties) values ('judgment_exported', $1, jsonb_build_object('marker', $2::text))",
      [past, marker],
    );
    expect(await partitionOf(marker)).toEqual(["app_events_default"]);
    await serviceClient().rpc("create_next_app_events_partition");
    expect(await partitionOf(marker)).toEqual([monthName(past)]);
    await pool.query(`drop table public.${monthName(past)}`);
  });

  it("a scheduled job runs at start and a failed run is retried by pg-boss after its retry delay, not at the next slot", async () => {
    let attempts = 0;
    const flaky: ScheduledJob = {
      name: "flaky",
      cron: "0 0 1 1 *", // next slot: next January
      atStart: true,
      retryDelaySeconds: 0,
      run: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("first run fails");
      },
    };
    const jobs = await testJobs([flaky]);
    try {
      const rows = await waitFor("the retried run to complete", async () => {
        const r = await bossJobs(pool, jobs.queue("flaky"));
        return r.length === 1 && r[0].state === "completed" && r;
      });
      // One pg-boss job: its first run failed, its retry completed.
      expect(rows.map((r) => ({ state: r.state, retry_count: r.retry_count }))).toEqual([{ state: "completed", retry_count: 1 }]);
    } finally {
      await jobs.close();
    }
    expect(attempts).toBe(2);
  });
});
