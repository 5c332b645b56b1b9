/**
 * Health says `degraded`, with the reason, when the service is not whole (fault tests):
 *   - the last search sync failed (an index folder that is full or unwritable: ENOSPC, EACCES) while the engine still
 *     answers from the old index — it used to say `healthy`;
 *   - no extraction worker has beaten within EXTRACTION_STALE_SECONDS (jobs are accepted, nothing works them);
 *   - the limits store's Redis is lost: the check pings the store the app really uses (LIMITS_REDIS_URL here, a port
 *     nothing listens on, and one that accepts and never answers), through its deadline.
 */
import net from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { config, resetConfigForTests } from "@/lib/config";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthForCaller, healthStatus, taskQueueReport, type HealthChecks } from "@/lib/backend/health/status";

const ok = async () => ({ status: "ok" as const });
const noSync = { last_completed_at: null, last_error: null };

function checks(overrides: Partial<HealthChecks> = {}): HealthChecks {
  return { cache: ok, database: ok, backend_platform: ok, task_queue: ok, llm_tracing: ok, search_engine: async () => ({ status: "ok", sync: noSync }), ...overrides };
}

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetConfigForTests();
});

describe("a failed last search sync", () => {
  it("makes a search engine that still answers `degraded` with the sync's error, and the whole `degraded`", async () => {
    const sync = { last_completed_at: "2026-12-06T10:00:00Z", last_error: "ENOSPC: no space left on device, write '.data/search/gen-12/docs.lance'" };
    const h = await healthStatus(checks({ search_engine: async () => ({ status: "ok", detail: "lancedb: 600 documents", sync }) }));
    expect(h.status).toBe("degraded");
    expect(h.dependencies.search_engine.status).toBe("degraded");
    expect(h.dependencies.search_engine.detail).toBe(`lancedb: 600 documents; the last search sync failed: ${sync.last_error}`);
    // Anonymous callers see that it failed, not the path.
    const anon = healthForCaller(h, "anonymous").dependencies.search_engine;
    expect(anon).toMatchObject({ status: "degraded", detail: "degraded", sync: { last_error: "failed" } });
  });

  it("a last sync that succeeded (last_error null) leaves the engine `ok`", async () => {
    const h = await healthStatus(checks({ search_engine: async () => ({ status: "ok", sync: { last_completed_at: "2026-12-06T10:00:00Z", last_error: null } }) }));
    expect(h.status).toBe("healthy");
  });
});

describe("no worker heartbeat within EXTRACTION_STALE_SECONDS", () => {
  const q = { pgboss: true, queued: 2, running: 1 };
  it("is `degraded` with the age of the last heartbeat; a fresh one is `ok`", async () => {
    expect(taskQueueReport({ ...q, heartbeat_age_seconds: 31 }, 30)).toEqual({
      status: "degraded",
      detail: "pg-boss; no live extraction worker (last heartbeat 31 s ago, stale after 30 s); 2 queued, 1 running",
    });
    expect(taskQueueReport({ ...q, heartbeat_age_seconds: null }, 30).detail).toContain("last heartbeat never");
    expect(taskQueueReport({ ...q, heartbeat_age_seconds: 4 }, 30)).toEqual({ status: "ok", detail: "pg-boss; worker heartbeat 4 s ago; 2 queued, 1 running" });
    const h = await healthStatus(checks({ task_queue: async () => taskQueueReport({ ...q, heartbeat_age_seconds: 31 }, 30) }));
    expect(h.status).toBe("degraded");
  });
});

describe("a lost Redis (the limits store the app uses)", () => {
  const hung = new Set<net.Socket>();
  const silent = net.createServer((s) => void hung.add(s)); // accepts, never answers
  afterAll(async () => {
    for (const s of hung) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  async function freePort(): Promise<number> {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    return port;
  }

  it("refused: the cache is `down` with the reason and the whole `degraded`", async () => {
    process.env.LIMITS_REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
    resetConfigForTests();
    const cache = await defaultChecks().cache();
    expect(cache.status).toBe("down");
    expect(cache.detail).toMatch(/^Redis unreachable \(.+\): rate limits use process memory and guest searches are unmetered$/);
    const h = await healthStatus(checks({ cache: defaultChecks().cache }));
    expect(h.status).toBe("degraded");
  });

  it("hanging: the cache is `down` at the store's deadline, not after the health check's", async () => {
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    process.env.LIMITS_REDIS_URL = `redis://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    process.env.LIMITS_STORE_TIMEOUT_MS = "300";
    resetConfigForTests();
    const h = await healthStatus(checks({ cache: defaultChecks().cache }));
    expect(h.dependencies.cache.status).toBe("down");
    expect(h.dependencies.cache.detail).toContain(`limits store did not answer within ${config().LIMITS_STORE_TIMEOUT_MS} ms`);
    expect(h.status).toBe("degraded");
  });
});
