import { describe, expect, it } from "vitest";
import { healthStatus, type HealthChecks } from "@/lib/backend/health/status";

const ok = async () => ({ status: "ok" as const });
const sync = { last_completed_at: null, last_error: null };

function checks(overrides: Partial<HealthChecks> = {}): HealthChecks {
  return {
    cache: ok,
    database: ok,
    backend_platform: ok,
    task_queue: ok,
    llm_tracing: ok,
    search_engine: async () => ({ status: "ok", sync }),
    ...overrides,
  };
}

describe("healthStatus", () => {
  it("shows the seeded corpus's version id; unknown or failing reads as null and never degrades the report", async () => {
    expect((await healthStatus(checks({ corpus_version: async () => "gen-2-s20260101-n12307" }))).corpus_version).toBe("gen-2-s20260101-n12307");
    expect((await healthStatus(checks())).corpus_version).toBeNull();
    const failing = await healthStatus(checks({ corpus_version: () => Promise.reject(new Error("no table")) }));
    expect([failing.corpus_version, failing.status]).toEqual([null, "healthy"]);
  });

  it("is healthy when every dependency is ok or not configured", async () => {
    const h = await healthStatus(checks({ llm_tracing: async () => ({ status: "not_configured" }) }));
    expect(h.status).toBe("healthy");
    expect(Object.keys(h.dependencies)).toHaveLength(6);
    expect(h.dependencies.database.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("turns a throwing check into `down` and the whole into `degraded`, never an exception", async () => {
    const h = await healthStatus(
      checks({
        cache: async () => {
          throw new Error("connection refused");
        },
      }),
    );
    expect(h.status).toBe("degraded");
    expect(h.dependencies.cache).toMatchObject({ status: "down", detail: "connection refused" });
  });

  it("reports a failing search engine as down with an empty sync state", async () => {
    const h = await healthStatus(checks({ search_engine: () => Promise.reject(new Error("index missing")) }));
    expect(h.status).toBe("degraded");
    expect(h.dependencies.search_engine).toEqual({ status: "down", detail: "index missing", sync });
  });

  it("is degraded without a database", async () => {
    const h = await healthStatus(checks({ database: async () => ({ status: "not_configured" }) }));
    expect(h.status).toBe("degraded");
  });
});
