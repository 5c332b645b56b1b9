/**
 * What /api/health/status shows to whom (L5) and how partition readiness counts (M7). The HTTP side
 * (anonymous vs admin against a real broken Redis) is in tests/api/faults-stack-redis.test.ts.
 */
import { describe, expect, it } from "vitest";
import { healthForCaller, healthStatus, type HealthChecks } from "@/lib/backend/health/status";

const SECRET = "connect ECONNREFUSED 10.1.2.3:6379 at Socket.internalConnect";
const sync = { last_completed_at: "2026-11-23T10:00:00.000Z", last_error: `relation "x" does not exist (${SECRET})` };

function checks(): HealthChecks {
  return {
    cache: async () => {
      throw new Error(SECRET);
    },
    database: async () => ({
      status: "degraded",
      detail: "app_events: next month's partition is missing (events go to the default partition)",
      app_events: { current_month_ready: true, months_ahead: 0, next_month_ready: false, default_partition_rows: 3 },
    }),
    backend_platform: async () => ({ status: "ok", detail: "auth" }),
    task_queue: async () => ({ status: "not_configured", detail: "no external task queue; scheduled jobs run in-process" }),
    llm_tracing: async () => ({ status: "not_configured" }),
    search_engine: async () => ({ status: "down", detail: `lancedb: ${SECRET}`, sync }),
  };
}

describe("healthForCaller (L5)", () => {
  it("anonymous callers and plain users get generic words, the same shape and no dependency message", async () => {
    const full = await healthStatus(checks());
    for (const role of ["anonymous", "user"] as const) {
      const h = healthForCaller(full, role);
      expect(Object.keys(h.dependencies).sort()).toEqual(Object.keys(full.dependencies).sort());
      expect(JSON.stringify(h)).not.toContain("ECONNREFUSED");
      expect(JSON.stringify(h)).not.toContain("10.1.2.3");
      expect(JSON.stringify(h)).not.toContain("does not exist");
      expect(h.dependencies.cache).toMatchObject({ status: "down", detail: "unavailable" });
      expect(h.dependencies.database).toMatchObject({ status: "degraded", detail: "degraded" });
      expect(h.dependencies.backend_platform.detail).toBeUndefined();
      expect(h.dependencies.task_queue.detail).toBe("not configured");
      expect(h.dependencies.search_engine.sync).toEqual({ last_completed_at: sync.last_completed_at, last_error: "failed" });
      // Counts are not secrets: the status page may show them.
      expect(h.dependencies.database.app_events?.default_partition_rows).toBe(3);
      expect([h.status, h.version, h.timestamp]).toEqual([full.status, full.version, full.timestamp]);
    }
  });

  it("signed-in admins get every detail", async () => {
    const full = await healthStatus(checks());
    const h = healthForCaller(full, "admin");
    expect(h.dependencies.cache.detail).toBe(SECRET);
    expect(h.dependencies.search_engine.sync.last_error).toBe(sync.last_error);
  });

  it("a missing next-month partition (database degraded) makes the whole degraded", async () => {
    const h = await healthStatus({ ...checks(), cache: async () => ({ status: "ok" }), search_engine: async () => ({ status: "ok", sync }) });
    expect(h.status).toBe("degraded");
    expect(h.dependencies.database.app_events?.next_month_ready).toBe(false);
  });
});
