import { describe, expect, it } from "vitest";
import { Browser } from "../helpers/http";

const DEPENDENCIES = ["cache", "database", "backend_platform", "task_queue", "llm_tracing", "search_engine"];

describe("GET /api/health/status", () => {
  it("answers 200 with all six dependencies, a version and a timestamp", async () => {
    const res = await new Browser().get("/api/health/status");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(["healthy", "degraded"]).toContain(body.status);
    expect(typeof body.version).toBe("string");
    expect(body.version.length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    expect(Object.keys(body.dependencies).sort()).toEqual([...DEPENDENCIES].sort());
    for (const name of DEPENDENCIES) {
      expect(["ok", "degraded", "down", "not_configured"], name).toContain(body.dependencies[name].status);
    }
    expect(body.dependencies.database.status).toBe("ok");
    expect(body.dependencies.backend_platform.status).toBe("ok");
    expect(body.dependencies.search_engine.sync).toHaveProperty("last_completed_at");
    expect(body.dependencies.search_engine.sync).toHaveProperty("last_error");
  });
});
